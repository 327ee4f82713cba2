import { SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pauses } from '../../support/pause.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type GraphQLResponse, type TestServer } from '../../support/server.js';
import { buildTree, expectError } from '../../support/tree.js';
import { traitsOf } from '../../support/traits.js';

/**
 * Per-tree permissions: a token's `trees` claim grants read or write on trees by their root ids.
 * What a caller may not read does not exist for it; what it may read but not write is FORBIDDEN.
 */

const SECRET = 'a-permissions-secret-of-32-bytes-or-more';

const token = (trees?: Record<string, string>, claims: JWTPayload = {}) =>
  new SignJWT({ sub: 'u', exp: Math.floor(Date.now() / 1000) + 300, ...(trees ? { trees } : {}), ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));

const codes = (response: GraphQLResponse) => response.body.errors?.map((e) => e.extensions?.code) ?? [];
const requestsOf = (response: GraphQLResponse) => response.body.extensions?.dynamodb?.requests;

describe.each(STRATEGIES_UNDER_TEST)('%s: per-tree permissions', (strategy) => {
  let server: TestServer;
  const pause = pauses();
  let as: (
    trees?: Record<string, string>,
  ) => Promise<(query: string, variables?: Record<string, unknown>) => Promise<GraphQLResponse>>;

  beforeAll(async () => {
    server = await startTestServer({
      strategy,
      env: { AUTH: 'jwt', JWT_SECRET: SECRET },
      middleware: pause.middleware,
    });
    as = async (trees) => {
      const authorization = `Bearer ${await token(trees)}`;
      return (query, variables) => server.gql(query, variables, { authorization });
    };
    const admin = await as();
    const build = { ...server, gql: (query: string, variables?: Record<string, unknown>) => admin(query, variables) };
    await buildTree(build, { id: 'a', children: [{ id: 'a1', children: [{ id: 'a11' }] }, { id: 'a2' }] });
    await buildTree(build, { id: 'b', children: [{ id: 'b1' }] });
    await buildTree(build, { id: 'c' });
  });
  afterAll(() => server?.close());

  it('hides the trees a caller may not read: lookups, lists, references', async () => {
    const reader = await as({ a: 'read', c: 'read' });
    expect((await reader('{ node(id: "a11") { id rootId ancestors { id } } }')).body.data).toEqual({
      node: { id: 'a11', rootId: 'a', ancestors: [{ id: 'a' }, { id: 'a1' }] },
    });
    expect((await reader('{ node(id: "b1") { id } }')).body.data).toEqual({ node: null });
    expect((await reader('{ nodes(ids: ["a1", "b", "b1", "c"]) { id } }')).body.data).toEqual({
      nodes: [{ id: 'a1' }, null, null, { id: 'c' }],
    });
    expect((await reader('{ roots { nodes { id } pageInfo { hasNextPage } } }')).body.data).toEqual({
      roots: { nodes: [{ id: 'a' }, { id: 'c' }], pageInfo: { hasNextPage: false } },
    });
    const first = (await reader('{ roots(first: 1) { nodes { id } pageInfo { hasNextPage endCursor } } }')).body.data
      .roots;
    expect(first.nodes).toEqual([{ id: 'a' }]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const next = await reader(
      'query($after: String) { roots(first: 1, after: $after) { nodes { id } pageInfo { hasNextPage } } }',
      { after: first.pageInfo.endCursor },
    );
    expect(next.body.data.roots).toEqual({ nodes: [{ id: 'c' }], pageInfo: { hasNextPage: false } });
    expect(codes(await reader('{ roots(after: "eyJyb290IjoiYiJ9") { nodes { id } } }'))).toEqual(['BAD_USER_INPUT']);
    // A cursor of the whole roots list (after "a") pages the granted roots from that place on.
    const admin = await as();
    const afterA = (await admin('{ roots(first: 1) { pageInfo { endCursor } } }')).body.data.roots.pageInfo.endCursor;
    expect(
      (await reader('query($after: String) { roots(after: $after) { nodes { id } } }', { after: afterA })).body.data,
    ).toEqual({ roots: { nodes: [{ id: 'c' }] } });
    // Backwards (last/before) likewise: the granted roots only, from the end or before a place.
    const back =
      'query($before: String) { roots(last: 1, before: $before) { nodes { id } pageInfo { hasPreviousPage } } }';
    expect((await reader(back)).body.data.roots).toEqual({ nodes: [{ id: 'c' }], pageInfo: { hasPreviousPage: true } });
    const beforeB = (await admin('{ roots(last: 2) { pageInfo { startCursor } } }')).body.data.roots.pageInfo
      .startCursor;
    expect((await reader(back, { before: beforeB })).body.data.roots).toEqual({
      nodes: [{ id: 'a' }],
      pageInfo: { hasPreviousPage: false },
    });
    expect((await reader('{ jobs { nodes { id } } }')).body.data).toEqual({ jobs: { nodes: [] } });
  });

  it('refuses writes: NOT_FOUND outside what it may read, FORBIDDEN where it may only read', async () => {
    const writer = await as({ a: 'write', b: 'read' });
    expect(
      codes(await writer('mutation { createNode(input: { id: "x1", parentId: "b1", name: "x" }) { id } }')),
    ).toEqual(['FORBIDDEN']);
    expect(
      codes(await writer('mutation { createNode(input: { id: "x2", parentId: "c", name: "x" }) { id } }')),
    ).toEqual(['NOT_FOUND']);
    expect(codes(await writer('mutation { createNode(input: { id: "x3", name: "a new root" }) { id } }'))).toEqual([
      'FORBIDDEN',
    ]);
    // createNodes: write on the parent's tree, or on every tree for roots.
    expect(
      codes(
        await writer(
          'mutation { createNodes(input: { parentId: "b1", nodes: [{ id: "x4", name: "x" }] }) { nodes { id } } }',
        ),
      ),
    ).toEqual(['FORBIDDEN']);
    expect(
      codes(
        await writer(
          'mutation { createNodes(input: { parentId: "c", nodes: [{ id: "x5", name: "x" }] }) { nodes { id } } }',
        ),
      ),
    ).toEqual(['NOT_FOUND']);
    expect(
      codes(await writer('mutation { createNodes(input: { nodes: [{ id: "x6", name: "roots" }] }) { nodes { id } } }')),
    ).toEqual(['FORBIDDEN']);
    expect(codes(await writer('mutation { updateNode(id: "b1", name: "renamed") { id } }'))).toEqual(['FORBIDDEN']);
    expect(codes(await writer('mutation { updateNode(id: "c", name: "renamed") { id } }'))).toEqual(['NOT_FOUND']);
    expect(codes(await writer('mutation { deleteNode(id: "b1") { deletedCount } }'))).toEqual(['FORBIDDEN']);
    // A move needs write on both trees; making a root needs write on every tree.
    expect(codes(await writer('mutation { reparent(id: "a2", newParentId: "b1") { id } }'))).toEqual(['FORBIDDEN']);
    expect(codes(await writer('mutation { reparent(id: "b1", newParentId: "a") { id } }'))).toEqual(['FORBIDDEN']);
    expect(codes(await writer('mutation { reparent(id: "a2", newParentId: "c") { id } }'))).toEqual(['NOT_FOUND']);
    expect(codes(await writer('mutation { reparent(id: "a2") { id } }'))).toEqual(['FORBIDDEN']);
    // Within its tree, it writes.
    expect((await writer('mutation { reparent(id: "a2", newParentId: "a1") { id parentId } }')).body.data).toEqual({
      reparent: { id: 'a2', parentId: 'a1' },
    });
    expect((await writer('mutation { reparent(id: "a2", newParentId: "a") { id parentId } }')).body.data).toEqual({
      reparent: { id: 'a2', parentId: 'a' },
    });
    // Nothing else changed.
    const admin = await as();
    const unchanged =
      '{ nodes(ids: ["x1", "x2", "x3", "x4", "x5", "x6"]) { id } ' +
      'b1: node(id: "b1") { name parentId } c: node(id: "c") { name } }';
    expect((await admin(unchanged)).body.data).toEqual({
      nodes: [null, null, null, null, null, null],
      b1: { name: 'b1', parentId: 'b' },
      c: { name: 'c' },
    });
  });

  it('holds the grant at commit: a write whose node moves into another tree meanwhile is refused', async () => {
    const admin = await as();
    const build = { ...server, gql: (query: string, variables?: Record<string, unknown>) => admin(query, variables) };
    const writer = await as({ r: 'write', s: 'read' });
    /** Runs `write` as the writer, paused at its transaction while the admin moves `r.p` into tree s; then back. */
    const racing = async (write: string, marker: string) => {
      await buildTree(build, { id: 'r', children: [{ id: 'r.p', children: [{ id: 'r.p.c' }] }, { id: 'r.q' }] });
      await buildTree(build, { id: 's', children: [{ id: 's.p' }] });
      const paused = pause.next(
        (command, input) => command.startsWith('TransactWrite') && JSON.stringify(input).includes(marker),
      );
      const answer = writer(write);
      await paused.reached;
      expect((await admin('mutation { reparent(id: "r.p", newParentId: "s.p") { id } }')).body.errors).toBeUndefined();
      paused.release();
      const refused = await answer;
      await admin('mutation { a: deleteNode(id: "r") { deletedCount } b: deleteNode(id: "s") { deletedCount } }');
      return refused;
    };
    const created = await racing(
      'mutation { createNode(input: { id: "race1", parentId: "r.p", name: "x" }) { id } }',
      'race1',
    );
    expectError(created, 'FORBIDDEN', {
      message: 'you may read parent "r.p" but not change it',
      details: { id: 'r.p' },
    });
    expect(
      codes(
        await racing(
          'mutation { createNodes(input: { parentId: "r.p", nodes: [{ id: "race2", name: "x" }] }) { nodes { id } } }',
          'race2',
        ),
      ),
    ).toEqual(['FORBIDDEN']);
    expect(codes(await racing('mutation { updateNode(id: "r.p.c", name: "race3") { id } }', 'race3'))).toEqual([
      'FORBIDDEN',
    ]);
    // A move into the tree that moved, and a move of a node of it.
    expect(codes(await racing('mutation { reparent(id: "r.q", newParentId: "r.p") { id } }', '"N#r.q"'))).toEqual([
      'FORBIDDEN',
    ]);
    expect(codes(await racing('mutation { reparent(id: "r.p.c", newParentId: "r.q") { id } }', '"N#r.p.c"'))).toEqual([
      'FORBIDDEN',
    ]);
    expect(codes(await racing('mutation { deleteNode(id: "r.p.c") { deletedCount } }', '"N#r.p.c"'))).toEqual([
      'FORBIDDEN',
    ]);
    expect((await admin('{ nodes(ids: ["race1", "race2"]) { id } }')).body.data).toEqual({ nodes: [null, null] });
  });

  it('refuses a malformed permissions claim as UNAUTHENTICATED', async () => {
    const bad = `Bearer ${await token(undefined, { trees: { a: 'owner' } })}`;
    const response = await server.gql('{ node(id: "a") { id } }', {}, { authorization: bad });
    expect(response.status).toBe(401);
    expect(codes(response)).toEqual(['UNAUTHENTICATED']);
  });

  it('costs no extra call where the strategy keeps the root, and the chain under adjacency', async () => {
    const open = await as();
    const limited = await as({ a: 'read' });
    const query = '{ node(id: "a11") { id } }';
    const unrestricted = requestsOf(await open(query));
    const restricted = requestsOf(await limited(query));
    expect(unrestricted).toBe(1);
    // a11 is two levels below its root: adjacency reads its parent, then the root.
    expect(restricted).toBe(traitsOf(strategy).keepsPath ? 1 : 3);
    // A caller who may read every tree pays nothing, even with some trees named.
    expect(requestsOf(await (await as({ '*': 'read', b: 'write' }))(query))).toBe(1);
  });
});
