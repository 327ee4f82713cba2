import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { SignJWT, type JWTPayload } from 'jose';
import { createDynamo } from '../../../src/dynamodb/client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveClient, subscribe } from '../../support/live.js';
import { pauses } from '../../support/pause.js';
import {
  plannedRequests,
  startTestServer,
  STRATEGIES_UNDER_TEST,
  type GraphQLResponse,
  type TestServer,
} from '../../support/server.js';
import { IN_FLIGHT } from '../../support/transactionConflicts.js';
import { buildTree, expectError, okData } from '../../support/tree.js';

/**
 * Grants on subtrees (docs/security.md), under every strategy: a grant on a node is inherited by
 * its subtree; reads see only what is granted (the chain above a grant's top stops there);
 * writes are checked, and the grant they rely on kept, in their own transaction, so that a
 * concurrent revoke or move is refused or applied, never half (AWS's transaction conflicts
 * emulated); grants cannot be escalated; live streams and history follow grants.
 */

const SECRET = 'a-subtree-grants-secret-of-32-bytes-or-more';

/** A token of `sub` that gives nothing on whole trees (its trees claim is empty), with `claims`. */
const token = (sub: string, claims: JWTPayload = { trees: {} }) =>
  new SignJWT({ sub, exp: Math.floor(Date.now() / 1000) + 300, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));

const codes = (response: GraphQLResponse) => response.body.errors?.map((e) => e.extensions?.code) ?? [];

const GRANT =
  'mutation($n: ID!, $p: String!, $l: AccessLevel!) ' +
  '{ grantAccess(nodeId: $n, principal: $p, level: $l) { nodeId principal level grantedBy } }';
const REVOKE = 'mutation($n: ID!, $p: String!) { revokeAccess(nodeId: $n, principal: $p) }';
const CREATE = 'mutation($id: ID!, $p: ID) { createNode(input: { id: $id, parentId: $p, name: "x" }) { id } }';
const MOVE = 'mutation($id: ID!, $p: ID) { reparent(id: $id, newParentId: $p) { id } }';
const IDS = '{ nodes(ids: ["g", "g.a", "g.a.x", "g.b", "g.b.z", "h.m"]) { id } }';

type Gql = (query: string, variables?: Record<string, unknown>) => Promise<GraphQLResponse>;

describe.each(STRATEGIES_UNDER_TEST)('%s: grants on subtrees', (strategy) => {
  let server: TestServer;
  // Holds a transaction before it is in flight; and one in flight (the conflicts' emulation sees it).
  const early = pauses('initialize');
  const inFlight = pauses('build');
  let admin: Gql;
  let ana: Gql;
  let bob: Gql;
  let eng: Gql;
  const as = async (sub: string, claims?: JWTPayload): Promise<Gql> => {
    const authorization = `Bearer ${await token(sub, claims)}`;
    return (query, variables) => server.gql(query, variables, { authorization });
  };
  const grant = (node: string, principal: string, level: string, by: Gql = admin) =>
    by(GRANT, { n: node, p: principal, l: level });
  const seen = async (who: Gql) =>
    (okData(await who(IDS)).nodes as Array<{ id: string } | null>).flatMap((n) => (n ? [n.id] : []));

  beforeAll(async () => {
    server = await startTestServer({
      strategy,
      env: { AUTH: 'jwt', JWT_SECRET: SECRET, GRANTS_CACHE_MS: '50' },
      emulateConflicts: true,
      middleware: (stack) => {
        early.middleware(stack);
        inFlight.middleware(stack);
      },
    });
    admin = await as('root', {});
    ana = await as('ana');
    bob = await as('bob');
    eng = await as('eve', { trees: {}, groups: ['eng'] });
    const build = { ...server, gql: admin };
    await buildTree(build, {
      id: 'g',
      children: [
        { id: 'g.a', children: [{ id: 'g.a.x' }, { id: 'g.a.y' }] },
        { id: 'g.b', children: [{ id: 'g.b.z' }] },
      ],
    });
    await buildTree(build, { id: 'h', children: [{ id: 'h.m' }] });
  });
  afterAll(() => server?.close());

  it('shows a grantee its subtree and nothing above it', async () => {
    expect(await seen(ana)).toEqual([]);
    expect(okData(await grant('g.a', 'sub:ana', 'WRITE')).grantAccess).toEqual({
      nodeId: 'g.a',
      principal: 'sub:ana',
      level: 'WRITE',
      grantedBy: 'root',
    });
    expect(await seen(ana)).toEqual(['g.a', 'g.a.x']);
    const read = okData(
      await ana(
        '{ node(id: "g.a.x") { access parentId rootId parent { id parent { id } } ancestors { id } } ' +
          'a: node(id: "g.a") { descendantCount children { nodes { id } } descendants { nodes { id } } } ' +
          'roots { nodes { id } } sharedWithMe { nodes { id access } } }',
      ),
    );
    expect(read.node).toEqual({
      access: 'WRITE',
      // The ids above the top show where the node lies; nothing else of those nodes does.
      parentId: 'g.a',
      rootId: 'g',
      parent: { id: 'g.a', parent: null },
      ancestors: [{ id: 'g.a' }],
    });
    expect(read.a).toEqual({
      descendantCount: 2,
      children: { nodes: [{ id: 'g.a.x' }, { id: 'g.a.y' }] },
      descendants: { nodes: [{ id: 'g.a.x' }, { id: 'g.a.y' }] },
    });
    expect(read.roots.nodes).toEqual([]);
    expect(read.sharedWithMe.nodes).toEqual([{ id: 'g.a', access: 'WRITE' }]);
    // A grant on a root shows the tree among the roots; a group's grant reaches its members.
    okData(await grant('h', 'group:eng', 'READ'));
    expect(okData(await eng('{ roots { nodes { id } } node(id: "h.m") { access } }'))).toEqual({
      roots: { nodes: [{ id: 'h' }] },
      node: { access: 'READ' },
    });
    expect(await seen(eng)).toEqual(['h.m']);
  });

  it('lets a grantee write within its grant, and refuses every write outside it', async () => {
    okData(await ana(CREATE, { id: 'g.a.new', p: 'g.a' }));
    okData(await ana('mutation { updateNode(id: "g.a.x", name: "renamed") { id } }'));
    okData(await ana(MOVE, { id: 'g.a.new', p: 'g.a.x' }));
    expectError(await ana(CREATE, { id: 'g.new', p: 'g' }), 'NOT_FOUND', { message: 'parent "g" does not exist' });
    expect(codes(await ana('mutation { updateNode(id: "g.b", name: "no") { id } }'))).toEqual(['NOT_FOUND']);
    expect(codes(await ana(MOVE, { id: 'g.a.new', p: 'g.b' }))).toEqual(['NOT_FOUND']);
    expect(codes(await ana(CREATE, { id: 'root2', p: null }))).toEqual(['FORBIDDEN']);
    // Read only on g.b: nothing goes there.
    okData(await grant('g.b', 'sub:ana', 'READ'));
    expectError(await ana(MOVE, { id: 'g.a.new', p: 'g.b' }), 'FORBIDDEN', {
      message: 'you may read new parent "g.b" but not change it',
    });
    expect(codes(await ana('mutation { deleteNode(id: "g.b.z") { deletedCount } }'))).toEqual(['FORBIDDEN']);
    okData(await ana('mutation { deleteNode(id: "g.a.new") { deletedCount } }'));
    okData(await revokeAll('g.b'));
    expect(await seen(ana)).toEqual(['g.a', 'g.a.x']);
  });

  const revokeAll = (node: string) => admin(REVOKE, { n: node, p: 'sub:ana' });

  it('refuses escalation: granting without ADMIN, moving or deleting out of a grant, reading above it', async () => {
    // Write is not admin: no grant to others, nor to itself.
    expectError(await grant('g.a.x', 'sub:bob', 'READ', ana), 'FORBIDDEN', {
      message: 'you may write node "g.a.x" but not grant access to it',
    });
    expect(codes(await grant('g.a', 'sub:ana', 'ADMIN', ana))).toEqual(['FORBIDDEN']);
    // Above its grant, or elsewhere: as if nothing were there.
    expect(codes(await grant('g', 'sub:ana', 'ADMIN', ana))).toEqual(['NOT_FOUND']);
    expect(codes(await ana(REVOKE, { n: 'g.a', p: 'sub:ana' }))).toEqual(['FORBIDDEN']);
    expect(okData(await ana('{ node(id: "g") { id } path: node(id: "g.a") { ancestors { id } } }'))).toEqual({
      node: null,
      path: { ancestors: [] },
    });
    // Its own tree: it may administer h.m.
    okData(await grant('h.m', 'sub:ana', 'ADMIN'));
    // Moving a node out of the subtree shared with it, into its own, takes ADMIN there.
    expectError(await ana(MOVE, { id: 'g.a.x', p: 'h.m' }), 'FORBIDDEN', {
      message:
        'node "g.a.x" may be moved out of, or deleted from, the subtree shared with you only by who may administer it',
    });
    // Its grant's top is not its to take away, nor to move.
    expect(codes(await ana('mutation { deleteNode(id: "g.a") { deletedCount } }'))).toEqual(['FORBIDDEN']);
    expect(codes(await ana(MOVE, { id: 'g.a', p: 'h.m' }))).toEqual(['FORBIDDEN']);
    // Nothing changed.
    expect(okData(await admin('{ node(id: "g.a.x") { parentId } a: node(id: "g.a") { parentId } }'))).toEqual({
      node: { parentId: 'g.a' },
      a: { parentId: 'g' },
    });
    // Bad grants: a typed error, nothing written.
    expect(codes(await grant('g.a', 'user:ana', 'READ'))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await grant('g.a', 'sub:', 'READ'))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await grant('nowhere', 'sub:bob', 'READ'))).toEqual(['NOT_FOUND']);
    // A principal at the most grants one may hold (its item written so, as a thousand grants leave it).
    const { doc } = createDynamo({ endpoint: server.config.dynamodbEndpoint, region: server.config.region });
    await doc.send(new PutCommand({ TableName: server.table, Item: { pk: 'P#sub:full', sk: 'GRANTS', n: 1000 } }));
    const limited = await grant('g.a', 'sub:full', 'READ');
    await doc.send(new DeleteCommand({ TableName: server.table, Key: { pk: 'P#sub:full', sk: 'GRANTS' } }));
    expectError(limited, 'LIMIT_EXCEEDED', {
      message: 'sub:full holds 1000 grants, the most one principal may hold',
      details: { limit: 1000 },
    });
    expect(okData(await admin('{ node(id: "g.a") { grants { principal level } } }')).node.grants).toEqual([
      { principal: 'sub:ana', level: 'WRITE' },
    ]);
  });

  it('lets an ADMIN grant to others; lists grants to admins, and to others their own', async () => {
    okData(await grant('g.a', 'sub:ana', 'ADMIN'));
    expect(okData(await grant('g.a.x', 'sub:bob', 'READ', ana)).grantAccess).toMatchObject({ grantedBy: 'ana' });
    expect(await seen(bob)).toEqual(['g.a.x']);
    expect(okData(await bob('{ node(id: "g.a.x") { grants { principal } } }')).node.grants).toEqual([
      { principal: 'sub:bob' },
    ]);
    expect(okData(await ana('{ node(id: "g.a.x") { grants { principal level } } }')).node.grants).toEqual([
      { principal: 'sub:bob', level: 'READ' },
    ]);
    // A grant's level changed, then revoked; a second revoke finds none.
    okData(await grant('g.a.x', 'sub:bob', 'WRITE', ana));
    expect(okData(await bob('{ node(id: "g.a.x") { access } }')).node.access).toBe('WRITE');
    expect(okData(await ana(REVOKE, { n: 'g.a.x', p: 'sub:bob' })).revokeAccess).toBe(true);
    expect(okData(await ana(REVOKE, { n: 'g.a.x', p: 'sub:bob' })).revokeAccess).toBe(false);
    expect(await seen(bob)).toEqual([]);
    // With ADMIN, a move out of the shared subtree into its own goes, and back.
    okData(await ana(MOVE, { id: 'g.a.y', p: 'h.m' }));
    okData(await ana(MOVE, { id: 'g.a.y', p: 'g.a' }));
    okData(await grant('g.a', 'sub:ana', 'WRITE'));
  });

  it('shows a grantee the history of what it may read, and lets it undo only that', async () => {
    okData(await admin('mutation { updateNode(id: "g.b.z", name: "hidden") { id } }'));
    okData(await admin('mutation { updateNode(id: "g.a.x", name: "visible") { id } }'));
    const history = okData(await ana('{ treeHistory(rootId: "g", first: 50) { nodes { id nodeId } } }'));
    const ids = history.treeHistory.nodes.map((c: { nodeId: string }) => c.nodeId);
    expect(ids).toContain('g.a.x');
    expect(ids.filter((id: string) => !id.startsWith('g.a'))).toEqual([]);
    const hidden = okData(await admin('{ node(id: "g.b.z") { history(first: 1) { nodes { id } } } }')).node.history
      .nodes[0].id;
    expect(codes(await ana('mutation($c: ID!) { undo(changeId: $c) { id } }', { c: hidden }))).toEqual(['NOT_FOUND']);
    const own = history.treeHistory.nodes.find((c: { nodeId: string }) => c.nodeId === 'g.a.x').id;
    okData(await ana('mutation($c: ID!) { undo(changeId: $c) { id } }', { c: own }));
    expect(okData(await admin('{ node(id: "g.b.z") { name } }')).node.name).toBe('hidden');
  });

  it('lists, restores, copies and imports within a grant only', async () => {
    okData(await admin('mutation { a: createNode(input: { id: "g.b.gone", parentId: "g.b", name: "x" }) { id } }'));
    okData(await ana(CREATE, { id: 'g.a.gone', p: 'g.a' }));
    okData(
      await admin(
        'mutation { a: deleteNode(id: "g.b.gone") { deletedCount } b: deleteNode(id: "g.a.gone") { deletedCount } }',
      ),
    );
    const deleted = okData(await ana('{ deletedNodes { nodes { id } } }')).deletedNodes.nodes;
    expect(deleted).toEqual([{ id: 'g.a.gone' }, { id: 'g.a.new' }]);
    expect(codes(await ana('mutation { restoreNode(id: "g.b.gone") { id } }'))).toEqual(['NOT_FOUND']);
    okData(await ana('mutation { restoreNode(id: "g.a.gone") { id } }'));
    // A list below its grant, none elsewhere; a copy of what it may read into it, of nothing else.
    const list =
      'mutation($p: ID!) { createNodes(input: { parentId: $p, nodes: [{ id: "l1", name: "l" }] }) { nodes { id } } }';
    expect(codes(await ana(list, { p: 'g.b' }))).toEqual(['NOT_FOUND']);
    okData(await ana(list, { p: 'g.a.gone' }));
    const copy =
      'mutation($id: ID!) { copySubtree(input: { id: $id, newParentId: "g.a", idPrefix: "c-" }) { copiedCount } }';
    expect(codes(await ana(copy, { id: 'g.b' }))).toEqual(['NOT_FOUND']);
    expect(okData(await ana(copy, { id: 'g.a.gone' })).copySubtree.copiedCount).toBe(2);
    okData(
      await ana(
        'mutation { a: deleteNode(id: "g.a.gone") { deletedCount } b: deleteNode(id: "c-g.a.gone") { deletedCount } }',
      ),
    );
    expect(await server.verify()).toEqual([]);
  });

  it('costs one read of the grants a request, besides the chain a strategy that keeps no path reads', async () => {
    const answer = await ana('{ node(id: "g.a.x") { id } }');
    expect(okData(answer).node).toEqual({ id: 'g.a.x' });
    // The node, its ancestors a level each under adjacency (depth 2), the caller's grants.
    expect(plannedRequests(answer)).toBe(strategy === 'adjacency' ? 4 : 2);
    const many = await ana('{ a: node(id: "g.a") { id } x: node(id: "g.a.x") { id } g: node(id: "g") { id } }');
    expect(okData(many)).toEqual({ a: { id: 'g.a' }, x: { id: 'g.a.x' }, g: null });
    // Under adjacency too: the chain's nodes are those the request read, in one batch.
    expect(plannedRequests(many)).toBe(2);
    // Credentials that reach the tree read no grant.
    const whole = await admin('{ node(id: "g.a.x") { id } }');
    expect(plannedRequests(whole)).toBe(1);
    // A grant: the node (under adjacency, its chain too: a read a level), the grantee's two
    // items, one transaction writing two items (the grant, the grantee's item) beside the
    // node's guard.
    const chain = strategy === 'adjacency' ? 2 : 0;
    const given = await grant('g.b.z', 'sub:cost', 'READ');
    expect(plannedRequests(given)).toBe(3 + chain);
    expect(given.body.extensions?.dynamodb?.itemsWritten).toBe(2);
    expect(plannedRequests(await admin(REVOKE, { n: 'g.b.z', p: 'sub:cost' }))).toBe(3 + chain);
  });

  it('refuses a write whose grant is revoked before it commits, and keeps one whose grant held', async () => {
    // Held before it is in flight: the revoke commits first, the write's condition on the grant fails.
    const held = early.next(
      (command, input) => command.startsWith('TransactWrite') && JSON.stringify(input).includes('race1'),
    );
    const refused = ana(CREATE, { id: 'race1', p: 'g.a' });
    await held.reached;
    okData(await revokeAll('g.a'));
    held.release();
    expect(codes(await refused)).toEqual(['NOT_FOUND']);
    okData(await grant('g.a', 'sub:ana', 'WRITE'));
    // Held in flight: the revoke meets it (TransactionConflict on AWS), and commits after it.
    const flying = inFlight.next(
      (command, input) => command.startsWith('TransactWrite') && JSON.stringify(input).includes('race2'),
    );
    const applied = ana(CREATE, { id: 'race2', p: 'g.a' });
    await flying.reached;
    const cancelled = IN_FLIGHT.cancelled;
    const revoking = revokeAll('g.a');
    await expect.poll(() => IN_FLIGHT.cancelled).toBeGreaterThan(cancelled);
    flying.release();
    okData(await applied);
    expect(okData(await revoking).revokeAccess).toBe(true);
    expect(okData(await admin('{ nodes(ids: ["race1", "race2"]) { id } }')).nodes).toEqual([null, { id: 'race2' }]);
    expect(await seen(ana)).toEqual(['h.m']);
    okData(await grant('g.a', 'sub:ana', 'WRITE'));
  });

  it('refuses a write whose node moves out of the grant before it commits', async () => {
    const held = early.next(
      (command, input) => command.startsWith('TransactWrite') && JSON.stringify(input).includes('race3'),
    );
    const refused = ana(CREATE, { id: 'race3', p: 'g.a.x' });
    await held.reached;
    okData(await admin(MOVE, { id: 'g.a.x', p: 'g.b' }));
    held.release();
    expect(codes(await refused)).toEqual(['NOT_FOUND']);
    okData(await admin(MOVE, { id: 'g.a.x', p: 'g.a' }));
    expect(okData(await admin('{ node(id: "race3") { id } }')).node).toBeNull();
    expect(await server.verify()).toEqual([]);
  });

  it('streams a grantee the changes within its grant: moves out and in, and the end on a revoke', async () => {
    const client = liveClient(server.url, { authorization: `Bearer ${await token('ana')}` });
    const sub = subscribe(client, { nodeId: 'g.a' });
    await sub.ready('g.a.x', () => admin('mutation { updateNode(id: "g.a.x", name: "poke") { id } }'));
    okData(await admin(MOVE, { id: 'g.a.y', p: 'g.b' }));
    okData(await admin(MOVE, { id: 'g.b.z', p: 'g.a' }));
    const [out, into] = await sub.until(2);
    expect(out).toMatchObject({
      kind: 'MOVED_OUT',
      nodeId: 'g.a.y',
      oldParentId: 'g.a',
      newParentId: null,
      node: null,
    });
    expect(into).toMatchObject({ kind: 'MOVED_IN', nodeId: 'g.b.z', newParentId: 'g.a', node: { id: 'g.b.z' } });
    okData(await admin(MOVE, { id: 'g.a.y', p: 'g.a' }));
    okData(await admin(MOVE, { id: 'g.b.z', p: 'g.b' }));
    okData(await revokeAll('g.a'));
    await expect.poll(() => sub.completed || sub.errors.length > 0, { timeout: 5000 }).toBe(true);
    expect(sub.errors.map((e) => (e as { extensions?: { code?: string } }).extensions?.code)).toEqual(['NOT_FOUND']);
    await client.dispose();
    okData(await grant('g.a', 'sub:ana', 'WRITE'));
  });
});
