import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeOrigins } from '../../../src/server/cors.js';
import { VERSION } from '../../../src/version.js';
import { outsideAddress, reaches } from '../../support/network.js';
import { startTestServer, type GraphQLResponse, type TestServer } from '../../support/server.js';

/**
 * The HTTP conventions a browser app relies on, through the real server: CORS, queries over GET,
 * automatic persisted queries, CSRF prevention and uncacheable responses; and the landing at /.
 */

const APP = 'https://app.example';
const OTHER = 'https://evil.example';
const PREFLIGHT = { 'apollo-require-preflight': 'true' };

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** /graphql with GET parameters; objects (variables, extensions) are sent as JSON. */
const getUrl = (server: TestServer, params: Record<string, unknown>): string => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    search.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return `${server.url}/graphql?${search.toString()}`;
};

async function send(url: string, init: RequestInit): Promise<GraphQLResponse & { headers: Headers }> {
  const response = await fetch(url, init);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as GraphQLResponse['body']) : {},
  };
}

const get = (server: TestServer, params: Record<string, unknown>, headers: Record<string, string> = PREFLIGHT) =>
  send(getUrl(server, params), { method: 'GET', headers });

const postJson = (server: TestServer, body: unknown, headers: Record<string, string> = {}) =>
  send(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const preflight = (server: TestServer, origin: string) =>
  fetch(`${server.url}/graphql`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,apollo-require-preflight,x-apollo-operation-name',
    },
  });

const list = (header: string | null): string[] =>
  (header ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

const codes = (response: GraphQLResponse): unknown[] => response.body.errors?.map((e) => e.extensions?.code) ?? [];

/** The node with this id, read back over JSON POST (null when it does not exist). */
async function nodeById(server: TestServer, id: string): Promise<{ id: string } | null> {
  const response = await server.gql<{ node: { id: string } | null }>('query($id: ID!) { node(id: $id) { id } }', {
    id,
  });
  expect(response.status).toBe(200);
  return response.body.data?.node ?? null;
}

describe('HTTP conventions for browsers', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { CORS_ORIGINS: APP } });
    const created = await server.gql('mutation { createNode(input: { id: "root-a", name: "A" }) { id } }');
    expect(created.body.errors).toBeUndefined();
  });
  afterAll(() => server?.close());

  describe('CORS', () => {
    it('answers a preflight from an allowed origin with 204 and what a browser app needs', async () => {
      const response = await preflight(server, APP);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(list(response.headers.get('access-control-allow-methods'))).toEqual(
        expect.arrayContaining(['get', 'post']),
      );
      expect(list(response.headers.get('access-control-allow-headers'))).toEqual(
        expect.arrayContaining(['content-type', 'apollo-require-preflight', 'x-apollo-operation-name']),
      );
      expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(list(response.headers.get('vary'))).toContain('origin');
    });

    it('gives a preflight from any other origin no allow header', async () => {
      const response = await preflight(server, OTHER);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(list(response.headers.get('vary'))).toContain('origin');
    });

    it('allows the origin on the actual request, and only that origin', async () => {
      const query = { query: '{ roots { nodes { id } } }' };
      const allowed = await postJson(server, query, { origin: APP });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(APP);
      expect(list(allowed.headers.get('vary'))).toContain('origin');

      const other = await postJson(server, query, { origin: OTHER });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      expect(list(other.headers.get('vary'))).toContain('origin');

      const viaGet = await get(server, query, { ...PREFLIGHT, origin: APP });
      expect(viaGet.status).toBe(200);
      expect(viaGet.headers.get('access-control-allow-origin')).toBe(APP);
    });

    it('sends the allow header on refusals too, so the browser app can read the error', async () => {
      const response = await send(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: APP },
        body: '{ not json',
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(codes(response)).toEqual(['BAD_REQUEST']);
    });
  });

  describe('queries over GET', () => {
    it('answers a query over GET with data and its DynamoDB cost, uncacheable', async () => {
      const response = await get(server, { query: '{roots{nodes{id}}}' });
      expect(response.status).toBe(200);
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data).toEqual({ roots: { nodes: [{ id: 'root-a' }] } });
      expect(response.body.extensions?.dynamodb?.requests).toBeGreaterThan(0);
      expect(response.body.extensions?.dynamodb?.itemsWritten).toBe(0);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(list(response.headers.get('vary'))).toEqual(expect.arrayContaining(['origin', 'accept']));
    });

    it('takes variables and an operation name over GET', async () => {
      const response = await get(server, {
        query: 'query One($id: ID!) { node(id: $id) { id name } } query Two { roots { nodes { id } } }',
        operationName: 'One',
        variables: { id: 'root-a' },
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ node: { id: 'root-a', name: 'A' } });
    });

    it('sees a mutation at once: a GET after a POST never answers from a stale copy', async () => {
      const before = await get(server, { query: '{ node(id: "root-a") { name version } }' });
      const renamed = await postJson(server, {
        query: 'mutation { updateNode(id: "root-a", name: "A2") { version } }',
      });
      expect(renamed.body.errors).toBeUndefined();
      const after = await get(server, { query: '{ node(id: "root-a") { name version } }' });
      expect(after.body.data).toEqual({
        node: { name: 'A2', version: (before.body.data as { node: { version: number } }).node.version + 1 },
      });
      expect(after.headers.get('cache-control')).toBe('no-store');
      await postJson(server, { query: 'mutation { updateNode(id: "root-a", name: "A") { version } }' });
    });

    it('refuses a mutation over GET with 405 and creates nothing', async () => {
      const response = await get(server, {
        query: 'mutation { createNode(input: { id: "via-get", name: "x" }) { id } }',
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(response.body.data ?? null).toBeNull();
      expect(response.body.extensions?.dynamodb).toMatchObject({ requests: 0, itemsWritten: 0 });
      expect(await nodeById(server, 'via-get')).toBeNull();
    });

    it('tells a browser that GraphiQL is off when it is, and how to turn it on', async () => {
      const off = await startTestServer({ env: { GRAPHIQL: 'false' } });
      try {
        const response = await fetch(`${off.url}/graphql`, {
          headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
        });
        expect(response.status).toBe(404);
        expect(await response.text()).toMatch(
          /^GraphiQL is off \(GRAPHIQL=false, the default with NODE_ENV=production\)/,
        );
        // An API client's GET still reaches GraphQL.
        const api = await get(off, { query: '{ roots { nodes { id } } }' });
        expect(api.status).toBe(200);
      } finally {
        await off.close();
      }
    });

    it('still serves GraphiQL to a browser asking for HTML', async () => {
      const response = await fetch(`${server.url}/graphql`, {
        headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(list(response.headers.get('vary'))).toContain('accept');
      expect(await response.text()).toContain('GraphiQL');
    });
  });

  describe('automatic persisted queries', () => {
    const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

    it('answers PERSISTED_QUERY_NOT_FOUND for an unknown hash, GET and POST, no DynamoDB call', async () => {
      const hash = sha256('{ roots { nodes { id name } } }');
      const viaGet = await get(server, { extensions: persisted(hash) });
      expect(viaGet.status).toBe(200);
      expect(codes(viaGet)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
      expect(viaGet.body.data).toBeUndefined();

      const viaPost = await postJson(server, { extensions: persisted(hash) });
      expect(codes(viaPost)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
      expect(viaPost.body.extensions?.dynamodb?.requests ?? 0).toBe(0);
    });

    it('registers a query sent with its hash; then the hash alone works, over POST and GET', async () => {
      const query = '{ roots(first: 5) { nodes { id name } } }';
      const hash = sha256(query);
      expect(codes(await postJson(server, { extensions: persisted(hash) }))).toEqual(['PERSISTED_QUERY_NOT_FOUND']);

      const registered = await postJson(server, { query, extensions: persisted(hash) });
      expect(registered.status).toBe(200);
      expect(registered.body.errors).toBeUndefined();
      const expected = { roots: { nodes: [{ id: 'root-a', name: 'A' }] } };
      expect(registered.body.data).toEqual(expected);

      const byHashPost = await postJson(server, { extensions: persisted(hash) });
      expect(byHashPost.body.errors).toBeUndefined();
      expect(byHashPost.body.data).toEqual(expected);

      // The URL alone names the operation; the response still says no-store.
      const byHashGet = await get(server, { extensions: persisted(hash) });
      expect(byHashGet.status).toBe(200);
      expect(byHashGet.body.errors).toBeUndefined();
      expect(byHashGet.body.data).toEqual(expected);
      expect(byHashGet.body.extensions?.dynamodb?.requests).toBeGreaterThan(0);
      expect(byHashGet.headers.get('cache-control')).toBe('no-store');
    });

    it('registers over GET as well, with variables', async () => {
      const query = 'query($id: ID!) { node(id: $id) { id depth } }';
      const hash = sha256(query);
      const registered = await get(server, { query, variables: { id: 'root-a' }, extensions: persisted(hash) });
      expect(registered.body.errors).toBeUndefined();
      const byHash = await get(server, { variables: { id: 'root-a' }, extensions: persisted(hash) });
      expect(byHash.body.data).toEqual({ node: { id: 'root-a', depth: 0 } });
    });

    it('refuses a query whose hash does not match, as a client error, and registers nothing', async () => {
      const query = '{ roots { nodes { id childCount } } }';
      const wrongHash = sha256('something else');
      const response = await postJson(server, { query, extensions: persisted(wrongHash) });
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0]?.message).toBe('provided sha does not match query');
      expect(codes(response)).toEqual(['BAD_REQUEST']);
      expect(response.body.data).toBeUndefined();
      expect(codes(await postJson(server, { extensions: persisted(wrongHash) }))).toEqual([
        'PERSISTED_QUERY_NOT_FOUND',
      ]);
    });

    it('still refuses a persisted mutation over GET, registered or not', async () => {
      const mutation = 'mutation { createNode(input: { parentId: "root-a", name: "apq" }) { id } }';
      const hash = sha256(mutation);
      const childCount = async () =>
        (await server.gql<{ node: { childCount: number } }>('{ node(id: "root-a") { childCount } }')).body.data?.node
          .childCount;
      expect(await childCount()).toBe(0);

      expect((await get(server, { query: mutation, extensions: persisted(hash) })).status).toBe(405);
      // Refused before it was registered.
      expect(codes(await get(server, { extensions: persisted(hash) }))).toEqual(['PERSISTED_QUERY_NOT_FOUND']);

      const registered = await postJson(server, { query: mutation, extensions: persisted(hash) });
      expect(registered.body.errors).toBeUndefined();
      expect(await childCount()).toBe(1);
      const byHash = await get(server, { extensions: persisted(hash) });
      expect(byHash.status).toBe(405);
      expect(await childCount()).toBe(1);

      const id = (registered.body.data as { createNode: { id: string } }).createNode.id;
      await postJson(server, {
        query: 'mutation($id: ID!) { deleteNode(id: $id) { deletedCount } }',
        variables: { id },
      });
    });
  });

  describe('CSRF prevention', () => {
    const mutation = (id: string) =>
      JSON.stringify({ query: `mutation { createNode(input: { id: "${id}", name: "x" }) { id } }` });
    /** The whole answer to a POST a form could have sent: short, the header to add, no stack. */
    const POST_REFUSAL = {
      errors: [
        {
          message:
            'send the body as JSON with the header content-type: application/json ' +
            '(a form post could come from another site)',
          extensions: { code: 'BAD_REQUEST' },
        },
      ],
    };

    it('refuses a text/plain POST (what a cross-site form can send) with 400, and nothing is written', async () => {
      const response = await send(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: mutation('csrf-text'),
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(POST_REFUSAL);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await nodeById(server, 'csrf-text')).toBeNull();
    });

    it('refuses form-encoded POSTs the same way', async () => {
      for (const contentType of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const response = await send(`${server.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': contentType },
          body: mutation('csrf-form'),
        });
        expect(response.status, contentType).toBe(400);
        expect(response.body, contentType).toEqual(POST_REFUSAL);
      }
      expect(await nodeById(server, 'csrf-form')).toBeNull();
    });

    it('tells `curl -d` (a form type) and a POST without a content type which header to add', async () => {
      // curl -d '{"query":"..."}' sends application/x-www-form-urlencoded; a byte body, no type.
      const curl = await send(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: '*/*' },
        body: '{"query":"{ roots { nodes { id } } }"}',
      });
      const untyped = await send(`${server.url}/graphql`, {
        method: 'POST',
        body: new TextEncoder().encode('{"query":"{ roots { nodes { id } } }"}'),
      });
      for (const response of [curl, untyped]) {
        expect(response.status).toBe(400);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.body).toEqual(POST_REFUSAL);
      }
    });

    it('refuses a GET without a preflight header with 400 before anything runs', async () => {
      const response = await get(server, { query: '{ roots { nodes { id } } }' }, {});
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        errors: [
          {
            message:
              'add the header apollo-require-preflight: true to a GET, or POST the query as JSON with the ' +
              'header content-type: application/json (a plain link could come from another site)',
            extensions: { code: 'BAD_REQUEST' },
          },
        ],
      });

      const withOperationName = await get(
        server,
        { query: '{ roots { nodes { id } } }' },
        { 'x-apollo-operation-name': 'Roots' },
      );
      expect(withOperationName.status).toBe(200);
    });

    it('runs a JSON POST', async () => {
      const response = await send(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: mutation('csrf-json'),
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ createNode: { id: 'csrf-json' } });
      expect(response.body.extensions?.dynamodb?.itemsWritten).toBeGreaterThan(0);
      expect(await nodeById(server, 'csrf-json')).toEqual({ id: 'csrf-json' });
      const deleted = await postJson(server, { query: 'mutation { deleteNode(id: "csrf-json") { deletedCount } }' });
      expect(deleted.body.data).toEqual({ deleteNode: { deletedCount: 1 } });
    });
  });
});

describe('without CORS_ORIGINS', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('allows no cross-origin access', async () => {
    const response = await preflight(server, APP);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const actual = await postJson(server, { query: '{ roots { nodes { id } } }' }, { origin: APP });
    expect(actual.status).toBe(200);
    expect(actual.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('still serves same-origin and non-browser clients', async () => {
    const response = await get(server, { query: '{ roots { nodes { id } } }' });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ roots: { nodes: [] } });
  });

  it('answers GET / with a landing page for browsers, and its facts as JSON for the rest', async () => {
    const page = await fetch(`${server.url}/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(list(page.headers.get('vary'))).toContain('accept');
    const html = await page.text();
    expect(html).toContain(`<title>Canopy ${VERSION}</title>`);
    for (const path of ['/graphql', '/healthz', '/readyz', '/metrics'])
      expect(html).toContain(`href="${server.url}${path}"`);
    expect(html).toContain(`curl -s ${server.url}/graphql -H &#39;content-type: application/json&#39;`);
    expect(html).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/);

    const curl = await fetch(`${server.url}/`);
    expect(curl.status).toBe(200);
    const facts = (await curl.json()) as Record<string, unknown>;
    expect(facts).toMatchObject({ name: 'Canopy', version: VERSION, graphiql: `${server.url}/graphql` });
    // The example runs as it is shown.
    const example = JSON.parse(/-d '(.*)'$/.exec(String(facts.curl))?.[1] ?? 'null') as { query: string };
    expect((await postJson(server, example)).body.data).toEqual({ roots: { nodes: [] } });
  });
});

describe('CORS_ORIGINS values', () => {
  it('are exact origins, normalized as browsers send them', () => {
    expect(
      normalizeOrigins([
        'https://app.example',
        'https://App.Example/',
        'http://localhost:5173',
        'https://a.example:443',
      ]),
    ).toEqual(['https://app.example', 'https://app.example', 'http://localhost:5173', 'https://a.example']);
  });

  it('refuses what could never match an Origin header', () => {
    for (const bad of [
      '*',
      'app.example',
      'https://app.example/path',
      'https://app.example?x',
      'https://user@app.example',
      'ftp://app.example',
      'null',
    ]) {
      expect(() => normalizeOrigins([bad]), bad).toThrow(/CORS_ORIGINS/);
    }
  });
});

describe('HOST', () => {
  it.skipIf(!outsideAddress)('listens on this machine only by default, on every interface with 0.0.0.0', async () => {
    const local = await startTestServer();
    const everywhere = await startTestServer({ table: local.table, env: { HOST: '0.0.0.0' } });
    try {
      const port = (server: TestServer) => Number(new URL(server.url).port);
      expect(new URL(local.url).hostname).toBe('127.0.0.1');
      expect(await reaches('127.0.0.1', port(local))).toBe(true);
      expect(await reaches(outsideAddress!, port(local))).toBe(false);
      expect(await reaches(outsideAddress!, port(everywhere))).toBe(true);
    } finally {
      await everywhere.close();
      await local.close();
    }
  });
});
