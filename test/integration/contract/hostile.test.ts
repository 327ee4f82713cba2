import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { startTestServer, STRATEGIES_UNDER_TEST, type GraphQLResponse, type TestServer } from '../../support/server.js';
import { buildTree, createNodeRaw, okData } from '../../support/tree.js';

/**
 * Hostile input: each request is answered with a typed client error, costs no DynamoDB call,
 * and leaves the tree as it was.
 */

/** The whole tree, as a client sees it. */
const SNAPSHOT =
  '{ roots { nodes { id name data version ' +
  'descendants(first: 1000) { nodes { id name data version parent { id } } } } } }';

/** `fragment Fk on Node { ...Fk-1 ...Fk-1 }` up to F`levels`: 2^levels spreads in a short text. */
const fanOut = (levels: number): string => {
  let text = 'fragment F0 on Node { id }\n';
  for (let k = 1; k <= levels; k++) text += `fragment F${k} on Node { ...F${k - 1} ...F${k - 1} }\n`;
  return `{ node(id: "h") { ...F${levels} } }\n${text}`;
};

/** `levels` levels of `{ "a": … }` around 1, as JSON text (no stack needed to build it). */
const nestedJson = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

const requestsOf = (response: GraphQLResponse): number | undefined => response.body.extensions?.dynamodb?.requests;

describe.each(STRATEGIES_UNDER_TEST)('%s: hostile input', (strategy) => {
  let server: TestServer;
  let before: unknown;

  const post = async (body: string, path = '/graphql'): Promise<GraphQLResponse> => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return { status: response.status, body: (await response.json()) as GraphQLResponse['body'] };
  };

  /** A refusal with `code`, no data, and (when the operation ran at all) no DynamoDB call. */
  const expectRefused = (response: GraphQLResponse, code: string, status?: number): void => {
    expect(
      response.body.errors?.map((e) => e.extensions?.code),
      JSON.stringify(response.body).slice(0, 300),
    ).toEqual([code]);
    if (status !== undefined) expect(response.status).toBe(status);
    expect(requestsOf(response) ?? 0).toBe(0);
  };

  beforeAll(async () => {
    server = await startTestServer({ strategy });
    await buildTree(server, { id: 'h', children: [{ id: 'h-1', children: [{ id: 'h-1-1' }] }, { id: 'h-2' }] });
    before = okData(await server.gql(SNAPSHOT));
  });
  afterAll(async () => {
    // The tree is what it was before any of them.
    expect(okData(await server.gql(SNAPSHOT))).toEqual(before);
    await server?.close();
  });

  it('refuses depth, alias and directive bombs before any call', async () => {
    let deep = 'id';
    for (let i = 0; i < 200; i++) deep = `parent { ${deep} }`;
    const tooDeep = await server.gql(`{ node(id: "h") { ${deep} } }`);
    expectRefused(tooDeep, 'QUERY_TOO_COMPLEX', 400);
    expect(tooDeep.body.errors?.[0]?.message).toBe(
      `operation depth 202 is over the limit of 16 (at node.${'parent.'.repeat(200)}id); nest fewer fields`,
    );
    const aliases = Array.from({ length: 1000 }, (_, i) => `a${i}: id`).join(' ');
    expectRefused(await server.gql(`{ node(id: "h") { ${aliases} } }`), 'QUERY_TOO_COMPLEX', 400);
    // Every alias counts, `__typename` and the other meta fields too.
    const typenames = (count: number, prefix = 'a') =>
      Array.from({ length: count }, (_, i) => `${prefix}${i}: __typename`).join(' ');
    for (const count of [101, 200, 1000]) {
      const refused = await server.gql(`{ ${typenames(count)} }`);
      expectRefused(refused, 'QUERY_TOO_COMPLEX', 400);
      expect(refused.body.errors?.[0]?.message).toBe(
        'operation uses more than 100 aliases, the limit: split it into several operations',
      );
    }
    // 60 + 1 + 40: the aliases of every level and meta field add up.
    expectRefused(
      await server.gql(
        `{ node(id: "h") { id ${typenames(60)} } s: __schema { queryType { name } } ${typenames(40, 'b')} }`,
      ),
      'QUERY_TOO_COMPLEX',
      400,
    );
    expect(okData(await server.gql(`{ ${typenames(100)} }`))).toEqual(
      Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`a${i}`, 'Query'])),
    );
    // Repeated directives: graphql-js refuses each repetition, and the directive limit the whole.
    const directives = Array.from({ length: 500 }, () => '@include(if: true)').join(' ');
    const directiveBomb = await server.gql(`{ node(id: "h") { id ${directives} } }`);
    expect(directiveBomb.status).toBe(400);
    expect(new Set(directiveBomb.body.errors?.map((e) => e.extensions?.code))).toEqual(
      new Set(['GRAPHQL_VALIDATION_FAILED', 'QUERY_TOO_COMPLEX']),
    );
    expect(requestsOf(directiveBomb) ?? 0).toBe(0);
    // One directive on each of 60 fields: within the alias limit, over the directive limit.
    const spread = Array.from({ length: 60 }, (_, i) => `a${i}: id @include(if: true)`).join(' ');
    const manyDirectives = await server.gql(`{ node(id: "h") { ${spread} } }`);
    expectRefused(manyDirectives, 'QUERY_TOO_COMPLEX', 400);
    expect(manyDirectives.body.errors?.[0]?.message).toMatch(/more than 50 directives/);
  });

  it('measures fragments spread twice over without following every spread', async () => {
    // 2^40 spreads of F0: a limits walk that followed each would never answer.
    const response = await server.gql(fanOut(40));
    expect(okData(response)).toEqual({ node: { id: 'h' } });
    expect(requestsOf(response)).toBe(1);
    const aliased = fanOut(20).replace('fragment F0 on Node { id }', 'fragment F0 on Node { x: id }');
    expectRefused(await server.gql(aliased), 'QUERY_TOO_COMPLEX', 400);
  });

  it('counts nested ancestors, and variables by their defaults, in the node estimate', async () => {
    expectRefused(
      await server.gql(
        '{ node(id: "h-1-1") { ancestors { ancestors { ancestors { ancestors { ancestors { id } } } } } } }',
      ),
      'QUERY_TOO_COMPLEX',
      400,
    );
    const byDefault =
      'query($f: Int = 1000) { roots(first: $f) { nodes { ' +
      'children(first: $f) { nodes { children(first: $f) { nodes { id } } } } } } }';
    expectRefused(await server.gql(byDefault), 'QUERY_TOO_COMPLEX', 400);
    const ids = JSON.stringify(Array.from({ length: 1000 }, (_, i) => `n${i}`));
    const idsByDefault =
      `query($ids: [ID!]! = ${ids}) { nodes(ids: $ids) { ` +
      'children(first: 1000) { nodes { children(first: 1000) { nodes { id } } } } } }';
    expectRefused(await server.gql(idsByDefault), 'QUERY_TOO_COMPLEX', 400);
  });

  it('refuses batched operations and oversized bodies; survives JSON nested 100,000 deep', async () => {
    const batch = await post(
      JSON.stringify([{ query: '{ roots { nodes { id } } }' }, { query: '{ roots { nodes { id } } }' }]),
    );
    expect(batch.status).toBe(400);
    expect(batch.body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
    const huge = await post(
      JSON.stringify({ query: '{ roots { nodes { id } } }', variables: { pad: 'x'.repeat(2 * 1024 * 1024) } }),
    );
    expect(huge.status).toBe(413);
    expect(huge.body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
    // JSON nested 100,000 deep in a variable the operation does not declare: parsed, ignored.
    const deepJson = await post(`{"query":"{ node(id: \\"h\\") { id } }","variables":{"v":${nestedJson(100_000)}}}`);
    expect(deepJson.body.data).toEqual({ node: { id: 'h' } });
  });

  it('refuses data DynamoDB cannot store, on create and on update, with BAD_USER_INPUT and no call', async () => {
    const bad: Array<[string, string]> = [
      ['a number past the DynamoDB range', '{"x":1e200}'],
      ['an integer JavaScript cannot hold exactly', '{"x":9007199254740993}'],
      ['a number below the DynamoDB range', '{"x":5e-324}'],
      ['an empty key', '{"":1}'],
      ['a __proto__ key', '{"__proto__":{"polluted":true}}'],
      ['a lone surrogate', '{"s":"\\ud800"}'],
      ['32 levels', nestedJson(32)],
      ['1,000 levels', nestedJson(1000)],
      ['10,000 levels', nestedJson(10_000)],
    ];
    for (const [what, data] of bad) {
      const create = await post(
        '{"query":"mutation($d: JSONObject) { ' +
          'createNode(input: { id: \\"bad\\", parentId: \\"h\\", name: \\"x\\", data: $d }) { id } }",' +
          `"variables":{"d":${data}}}`,
      );
      expect(
        create.body.errors?.map((e) => e.extensions?.code),
        what,
      ).toEqual(['BAD_USER_INPUT']);
      expect(requestsOf(create), what).toBe(0);
      const update = await post(
        `{"query":"mutation($d: JSONObject) { updateNode(id: \\"h-2\\", data: $d) { id } }","variables":{"d":${data}}}`,
      );
      expect(
        update.body.errors?.map((e) => e.extensions?.code),
        what,
      ).toEqual(['BAD_USER_INPUT']);
      expect(requestsOf(update), what).toBe(0);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stores what DynamoDB can: 31 levels, tiny numbers and safe integers', async () => {
    const data = JSON.parse(`{"a":${nestedJson(30)},"tiny":1.5e-130,"safe":9007199254740991}`) as Record<
      string,
      unknown
    >;
    const created = await createNodeRaw(server, { id: 'stored', parentId: 'h-1-1', name: 'stored', data });
    expect(okData(created)).toBeTruthy();
    const read = okData(await server.gql('{ node(id: "stored") { data } }'));
    expect(read).toEqual({ node: { data } });
    okData(await server.gql('mutation { deleteNode(id: "stored") { deletedCount } }'));
  });

  it('refuses names with control characters or lone surrogates, and forged cursors', async () => {
    for (const name of ['tab\there', 'line\nbreak', 'nul\u0000', 'half \uD800']) {
      const response = await createNodeRaw(server, { id: 'named', parentId: 'h', name });
      expectRefused(response, 'BAD_USER_INPUT');
    }
    for (const after of ['garbage', 'eyJkIjowfQ', 'x'.repeat(5000)]) {
      const response = await server.gql(
        'query($a: String) { node(id: "h") { children(after: $a) { nodes { id } } } }',
        { a: after },
      );
      expect(response.body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
      expect(response.body.data).toEqual({ node: null });
      // The node lookup only: the cursor is refused before any read of children.
      expect(requestsOf(response)).toBe(1);
    }
  });
});

describe.each(STRATEGIES_UNDER_TEST)('%s: hostile grants', (strategy) => {
  const SECRET = 'a-hostile-grants-secret-of-32-bytes-or-more';
  let server: TestServer;
  let before: unknown;
  let as: (sub: string) => Promise<(query: string, variables?: Record<string, unknown>) => Promise<GraphQLResponse>>;
  const codes = (response: GraphQLResponse) => response.body.errors?.map((e) => e.extensions?.code);

  beforeAll(async () => {
    server = await startTestServer({ strategy, env: { AUTH: 'jwt', JWT_SECRET: SECRET } });
    as = async (sub) => {
      const claims = sub === 'root' ? {} : { trees: {} };
      const signed = await new SignJWT({ sub, exp: Math.floor(Date.now() / 1000) + 300, ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(SECRET));
      return (query, variables) => server.gql(query, variables, { authorization: `Bearer ${signed}` });
    };
    const root = await as('root');
    await buildTree({ ...server, gql: root }, { id: 's', children: [{ id: 's-1', children: [{ id: 's-1-1' }] }] });
    await buildTree({ ...server, gql: root }, { id: 'own', children: [{ id: 'own-1' }] });
    okData(await root('mutation { a: grantAccess(nodeId: "s-1", principal: "sub:mal", level: WRITE) { level } }'));
    okData(await root('mutation { a: grantAccess(nodeId: "own", principal: "sub:mal", level: ADMIN) { level } }'));
    before = okData(await root(`${SNAPSHOT.slice(0, -1)} s: node(id: "s-1") { grants { principal level } } }`));
  });
  afterAll(async () => {
    const root = await as('root');
    // Nothing any of them tried changed the trees or the grants.
    expect(okData(await root(`${SNAPSHOT.slice(0, -1)} s: node(id: "s-1") { grants { principal level } } }`))).toEqual(
      before,
    );
    await server?.close();
  });

  it('refuses granting what the caller does not hold, and forged principals', async () => {
    const mal = await as('mal');
    const grant = (node: string, principal: string, level = 'READ') =>
      mal('mutation($n: ID!, $p: String!) { grantAccess(nodeId: $n, principal: $p, level: ' + level + ') { level } }', {
        n: node,
        p: principal,
      });
    expect(codes(await grant('s-1', 'sub:mal', 'ADMIN'))).toEqual(['FORBIDDEN']);
    expect(codes(await grant('s-1-1', 'sub:friend'))).toEqual(['FORBIDDEN']);
    expect(codes(await grant('s', 'sub:mal', 'ADMIN'))).toEqual(['NOT_FOUND']);
    expect(codes(await mal('mutation { revokeAccess(nodeId: "s-1", principal: "sub:root") }'))).toEqual(['FORBIDDEN']);
    for (const forged of ['sub:\u0000', `group:${'g'.repeat(300)}`, 'root', 'key:', '*'])
      expect(codes(await grant('own-1', forged))).toEqual(['BAD_USER_INPUT']);
  });

  it('refuses moving a node out of a granted subtree into its own, and shows nothing above a grant', async () => {
    const mal = await as('mal');
    expect(codes(await mal('mutation { reparent(id: "s-1-1", newParentId: "own") { id } }'))).toEqual(['FORBIDDEN']);
    expect(codes(await mal('mutation { reparent(id: "s-1", newParentId: "own") { id } }'))).toEqual(['FORBIDDEN']);
    expect(codes(await mal('mutation { deleteNode(id: "s-1") { deletedCount } }'))).toEqual(['FORBIDDEN']);
    expect(
      codes(await mal('mutation { copySubtree(input: { id: "s", newParentId: "own" }) { copiedCount } }')),
    ).toEqual(['NOT_FOUND']);
    const above = okData(
      await mal(
        '{ node(id: "s-1-1") { ancestors { id name } parent { id parent { id name } } } ' +
          's: node(id: "s") { id } treeHistory(rootId: "s") { nodes { nodeId } } ' +
          'nodes(ids: ["s", "s-1"]) { id } }',
      ),
    );
    expect(above.node).toEqual({ ancestors: [{ id: 's-1', name: 's-1' }], parent: { id: 's-1', parent: null } });
    expect(above.s).toBeNull();
    expect(above.nodes).toEqual([null, { id: 's-1' }]);
    expect(above.treeHistory.nodes.map((c: { nodeId: string }) => c.nodeId).filter((id: string) => id === 's')).toEqual(
      [],
    );
  });
});
