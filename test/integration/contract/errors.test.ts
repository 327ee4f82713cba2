import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, STRATEGIES_UNDER_TEST, type GraphQLResponse, type TestServer } from '../../support/server.js';
import { buildTree, createNodeRaw, okData } from '../../support/tree.js';

const post = (server: TestServer, body: string): Promise<Response> =>
  fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

/** Every error of a response, and none with a stack trace. */
const expectNoStacktrace = (errors: Array<{ extensions?: Record<string, unknown> }> | undefined): void => {
  expect(errors?.length).toBeGreaterThan(0);
  for (const error of errors ?? []) {
    expect(typeof error.extensions?.code).toBe('string');
    expect(error.extensions).not.toHaveProperty('stacktrace');
    expect(JSON.stringify(error)).not.toMatch(/\.(ts|js):\d+/);
  }
};

/** Refused before any resolver ran: no data, and every error says QUERY_TOO_COMPLEX. */
const expectTooComplex = (response: GraphQLResponse): void => {
  const codes = response.body.errors?.map((e) => e.extensions?.code) ?? [];
  expect(codes.length, JSON.stringify(response.body)).toBeGreaterThan(0);
  expect(new Set(codes)).toEqual(new Set(['QUERY_TOO_COMPLEX']));
  expect(response.body.data ?? null).toBeNull();
};

describe.each(STRATEGIES_UNDER_TEST)('%s: errors and HTTP', (strategy) => {
  describe('protocol errors', () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({ strategy });
      await buildTree(server, { id: 'e', children: [{ id: 'e-1' }] });
    });
    afterAll(() => server?.close());

    it('refuses an unknown field with GRAPHQL_VALIDATION_FAILED and HTTP 400', async () => {
      const response = await server.gql('{ node(id: "e") { id noSuchField } }');
      expect(response.status).toBe(400);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors?.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(response.body.errors?.[0]?.message).toContain('noSuchField');
    });

    it('refuses a missing required argument with GRAPHQL_VALIDATION_FAILED and HTTP 400', async () => {
      const response = await server.gql('{ node { id } }');
      expect(response.status).toBe(400);
      expect(response.body.errors?.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    });

    it('refuses a query that does not parse with GRAPHQL_PARSE_FAILED and HTTP 400', async () => {
      const response = await server.gql('{ node(id: "e") { id ');
      expect(response.status).toBe(400);
      expect(response.body.errors?.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_PARSE_FAILED']);
    });

    it('refuses variables of the wrong type with BAD_USER_INPUT and HTTP 400', async () => {
      const response = await server.gql('query($first: Int) { roots(first: $first) { nodes { id } } }', {
        first: 'ten',
      });
      expect(response.status).toBe(400);
      expect(response.body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    });

    it('refuses a malformed JSON body with HTTP 400', async () => {
      const response = await post(server, '{"query": "{ roots { nodes { id } } }"');
      expect(response.status).toBe(400);
      const other = await post(server, 'not json at all');
      expect(other.status).toBe(400);
      expect(other.headers.get('content-type')).toMatch(/^application\/json/);
      expect(other.headers.get('cache-control')).toBe('no-store');
      const body = (await other.json()) as GraphQLResponse['body'];
      expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
      expectNoStacktrace(body.errors);
    });

    it('refuses a body over 1 MiB with HTTP 413 as a JSON error, on every path to /graphql', async () => {
      const huge = JSON.stringify({ query: '{ roots { nodes { id } } }', variables: { pad: 'x'.repeat(1024 * 1024) } });
      for (const path of ['/graphql', '/graphql/']) {
        const response = await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: huge,
        });
        expect(response.status).toBe(413);
        const body = (await response.json()) as GraphQLResponse['body'];
        expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
        expectNoStacktrace(body.errors);
      }
      const small = await fetch(`${server.url}/graphql/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"{ node(id: \\"e\\") { id } }"}',
      });
      expect(((await small.json()) as GraphQLResponse['body']).data).toEqual({ node: { id: 'e' } });
    });

    it('refuses a data argument that is not a JSON object with BAD_USER_INPUT', async () => {
      for (const data of [[1, 2], 'text', 3]) {
        const response = await createNodeRaw(server, { id: 'not-object', parentId: 'e', data: data as never });
        expect(response.body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
      }
      expect(okData(await server.gql('{ node(id: "not-object") { id } }'))).toEqual({ node: null });
    });

    it('answers an error in one field beside the data of the others', async () => {
      const response = await server.gql(
        '{ ok: node(id: "e") { id childCount } bad: node(id: "e") { children(first: 0) { nodes { id } } } }',
      );
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ ok: { id: 'e', childCount: 1 }, bad: null });
      expect(response.body.errors?.map((e) => [e.extensions?.code, e.path])).toEqual([
        ['BAD_USER_INPUT', ['bad', 'children']],
      ]);
    });

    it('refuses an operation far over the depth limit with QUERY_TOO_COMPLEX', async () => {
      let deep = 'id';
      for (let i = 0; i < 40; i++) deep = `id children(first: 2) { nodes { ${deep} } }`;
      expectTooComplex(await server.gql(`{ node(id: "e") { ${deep} } }`));
    });

    it('refuses an operation far over the alias limit with QUERY_TOO_COMPLEX', async () => {
      const aliases = Array.from({ length: 200 }, (_, i) => `a${i}: node(id: "e") { id }`).join(' ');
      expectTooComplex(await server.gql(`{ ${aliases} }`));
    });

    it('refuses a document of more than 5000 tokens with QUERY_TOO_COMPLEX and HTTP 400', async () => {
      const fields = Array.from({ length: 5100 }, () => 'id').join(' ');
      const response = await server.gql(`{ node(id: "e") { ${fields} } }`);
      expectTooComplex(response);
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0]?.message).toMatch(/more than 5000 tokens/);
    });

    it('refuses an operation far over the cost limit with QUERY_TOO_COMPLEX', async () => {
      // Shallow and without aliases, but up to 10^12 nodes.
      const costly =
        '{ roots(first: 1000) { nodes { descendants(first: 1000) { nodes { ' +
        'children(first: 1000) { nodes { descendants(first: 1000) { nodes { id } } } } } } } } }';
      expectTooComplex(await server.gql(costly));
    });

    it('answers GET /healthz and /readyz with 200', async () => {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    });
  });

  describe('in production', () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({ strategy, env: { NODE_ENV: 'production' } });
      await buildTree(server, { id: 'p', children: [{ id: 'p-1' }] });
    });
    afterAll(() => server?.close());

    it('never sends a stack trace', async () => {
      const cases = [
        await server.gql('{ node(id: "p") { id noSuchField } }'),
        await server.gql('{ node(id: "p") { id '),
        await server.gql('mutation { updateNode(id: "no-such-node", name: "x") { id } }'),
        await server.gql('mutation { reparent(id: "p", newParentId: "p-1") { id } }'),
        await server.gql('{ node(id: "p") { children(first: 0) { nodes { id } } } }'),
        await server.gql('{ node(id: "p") { descendants(after: "garbage") { nodes { id } } } }'),
        await createNodeRaw(server, { id: 'bad id', parentId: 'p' }),
      ];
      expect(cases.map((r) => r.body.errors?.[0]?.extensions?.code)).toEqual([
        'GRAPHQL_VALIDATION_FAILED',
        'GRAPHQL_PARSE_FAILED',
        'NOT_FOUND',
        'CYCLE',
        'BAD_USER_INPUT',
        'BAD_USER_INPUT',
        'BAD_USER_INPUT',
      ]);
      for (const response of cases) expectNoStacktrace(response.body.errors);
    });

    it('answers client mistakes with client codes: a subscription, an unknown persisted version', async () => {
      // A subscription needs a stream: WebSocket or Server-Sent Events, not a plain POST.
      const subscription = await server.gql('subscription { treeChanges(nodeId: "a") { kind } }');
      expect(subscription.status).toBe(400);
      expect(subscription.body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
      expect(subscription.body.extensions?.dynamodb?.requests).toBe(0);
      const persisted = await post(
        server,
        JSON.stringify({
          query: '{ roots { nodes { id } } }',
          extensions: { persistedQuery: { version: 2, sha256Hash: 'abc' } },
        }),
      );
      expect(persisted.status).toBe(400);
      const body = (await persisted.json()) as GraphQLResponse['body'];
      expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
      expectNoStacktrace(body.errors);
    });

    it('keeps the schema to itself: no introspection, no field suggestions, no GraphiQL', async () => {
      const introspection = await server.gql('{ __schema { queryType { name } } }');
      expect(introspection.status).toBe(400);
      expect(introspection.body.errors?.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(introspection.body.errors?.[0]?.message).toBe('introspection is off: set INTROSPECTION=true to allow it');
      const typo = await server.gql('{ node(id: "p") { nam } }');
      expect(typo.body.errors?.[0]?.message).not.toMatch(/Did you mean/);
      const page = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(page.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
      await page.body?.cancel();
    });
  });
});
