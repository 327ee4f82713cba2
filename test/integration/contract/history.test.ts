import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtCaller, type Gql } from '../../support/jwtCaller.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { expectError, okData } from '../../support/tree.js';

/**
 * History: every change recorded with its write, listed newest first for a node (its own
 * changes) and for a tree (every change in it), with who made it and what it changed; only in
 * trees the caller may read, only in its tenant.
 */

const SECRET = 'a-history-secret-of-at-least-32-bytes';

const CHANGE = `id kind nodeId oldParentId newParentId position oldPosition oldName oldData oldVersion version count
  at by node { id name data } job { kind status }`;
const TREE_HISTORY = `query H($rootId: ID!, $first: Int, $after: String) {
  treeHistory(rootId: $rootId, first: $first, after: $after) {
    edges { cursor node { ${CHANGE} } } pageInfo { hasNextPage hasPreviousPage endCursor }
  }
}`;
const NODE_HISTORY = `query N($id: ID!, $first: Int, $after: String) {
  node(id: $id) { history(first: $first, after: $after) { nodes { ${CHANGE} } pageInfo { hasNextPage endCursor } } }
}`;

interface Change {
  id: string;
  kind: string;
  nodeId: string;
  oldParentId: string | null;
  newParentId: string | null;
  position: string | null;
  oldPosition: string | null;
  oldName: string | null;
  oldData: Record<string, unknown> | null;
  oldVersion: number | null;
  version: number | null;
  count: number | null;
  by: string | null;
  node: { id: string; name: string; data: Record<string, unknown> | null } | null;
  job: { kind: string; status: string } | null;
}
interface History {
  edges: Array<{ cursor: string; node: Change }>;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string | null };
}

describe.each(STRATEGIES_UNDER_TEST)('%s: history', (strategy) => {
  let server: TestServer;
  let as: (claims: Record<string, unknown>) => Promise<Gql>;
  let alice: Gql;
  let bob: Gql;
  let tree = 0;

  beforeAll(async () => {
    // Ten items a transaction: a createNodes of a few nodes runs as an IMPORT job.
    server = await startTestServer({ strategy, env: { AUTH: 'jwt', JWT_SECRET: SECRET, TRANSACTION_ITEMS: '10' } });
    as = (claims) => jwtCaller(server, SECRET, claims);
    alice = await as({ sub: 'alice' });
    bob = await as({ sub: 'bob' });
  });
  afterAll(() => server?.close());

  const run = async (gql: Gql, query: string, variables: Record<string, unknown>) =>
    okData<Record<string, unknown>>(await gql(query, variables));
  const create = (gql: Gql, id: string, parentId: string | null, data?: Record<string, unknown>) =>
    run(gql, 'mutation C($input: CreateNodeInput!) { createNode(input: $input) { id } }', {
      input: { id, name: id, parentId, ...(data ? { data } : {}) },
    });
  const treeHistory = async (gql: Gql, rootId: string, first = 100, after?: string) =>
    (await run(gql, TREE_HISTORY, { rootId, first, after })).treeHistory as History;
  const nodeHistory = async (gql: Gql, id: string, first = 100) =>
    ((await run(gql, NODE_HISTORY, { id, first })).node as { history: { nodes: Change[] } }).history.nodes;

  /** A tree `r`: children a (data {v: 1}) and b, made by alice. */
  const freshTree = async () => {
    const r = `h${++tree}`;
    await create(alice, r, null);
    await create(alice, `${r}-a`, r, { v: 1 });
    await create(alice, `${r}-b`, r);
    return { r, a: `${r}-a`, b: `${r}-b` };
  };

  it('records each kind of change with its author, newest first, with what it changed', async () => {
    const { r, a, b } = await freshTree();
    await run(bob, 'mutation { updateNode(id: "' + a + '", name: "A2", data: {v: 2}) { id } }', {});
    await run(bob, `mutation { reparent(id: "${a}", newParentId: "${b}") { id } }`, {});
    await create(alice, `${r}-c`, r);
    await run(alice, `mutation { reparent(id: "${r}-c", newParentId: "${r}", before: "${b}") { id } }`, {});
    const own = await nodeHistory(alice, a);
    await run(bob, `mutation { deleteNode(id: "${b}") { deletedCount } }`, {});

    const changes = (await treeHistory(alice, r)).edges.map((e) => e.node);
    expect(changes.map((c) => [c.kind, c.nodeId, c.by])).toEqual([
      ['DELETED', b, 'bob'],
      ['REORDERED', `${r}-c`, 'alice'],
      ['CREATED', `${r}-c`, 'alice'],
      ['MOVED', a, 'bob'],
      ['UPDATED', a, 'bob'],
      ['CREATED', b, 'alice'],
      ['CREATED', a, 'alice'],
      ['CREATED', r, 'alice'],
    ]);
    const [deleted, reordered, , moved, updated] = changes;
    expect(updated).toMatchObject({
      oldName: a,
      oldData: { v: 1 },
      oldVersion: 1,
      version: 2,
      node: { id: a, name: 'A2', data: { v: 2 } },
      oldParentId: r,
      newParentId: r,
    });
    expect(moved).toMatchObject({ oldParentId: r, newParentId: b, oldVersion: 2, version: 3, node: { name: 'A2' } });
    expect(moved!.oldPosition).toEqual(updated!.position);
    expect(reordered!.position! < reordered!.oldPosition!).toBe(true);
    // A delete: the subtree's size, what the node was, and no node after it.
    expect(deleted).toMatchObject({ count: 2, oldName: b, oldParentId: r, newParentId: null, node: null });
    expect(new Set(changes.map((c) => c.id)).size).toBe(changes.length);

    // The moved node's own changes, and the tree's, agree.
    expect(own.map((c) => c.kind)).toEqual(['MOVED', 'UPDATED', 'CREATED']);
    expect(own.map((c) => c.id)).toEqual([moved!.id, updated!.id, changes[6]!.id]);
  });

  it('records a bulk create: each top node in one transaction, the join of an IMPORT job', async () => {
    const { r, a } = await freshTree();
    const createNodes = `mutation M($input: CreateNodesInput!) {
      createNodes(input: $input) { nodes { id } job { id } }
    }`;
    await run(bob, createNodes, { input: { parentId: a, nodes: [{ id: `${r}-x`, name: 'x' }] } });
    const many = Array.from({ length: 8 }, (_, i) => ({ id: `${r}-m${i}`, name: `m${i}` }));
    const result = (await run(bob, createNodes, { input: { parentId: a, nodes: many } })).createNodes as {
      job: { id: string } | null;
    };
    expect(result.job).not.toBeNull();
    const [join, single] = (await treeHistory(alice, r)).edges.map((e) => e.node);
    expect(join).toMatchObject({ kind: 'JOB_DONE', nodeId: a, count: 8, by: 'bob', job: { kind: 'IMPORT' } });
    expect(single).toMatchObject({ kind: 'CREATED', nodeId: `${r}-x`, count: 1, by: 'bob', newParentId: a });
    expect((await nodeHistory(alice, a)).map((c) => c.kind)).toEqual(['JOB_DONE', 'CREATED']);
    expect((await nodeHistory(alice, `${r}-x`)).map((c) => c.kind)).toEqual(['CREATED']);
  });

  it('records a move between trees in both, once in the node history', async () => {
    const one = await freshTree();
    const two = await freshTree();
    await run(alice, `mutation { reparent(id: "${one.a}", newParentId: "${two.b}") { id } }`, {});
    const [left] = (await treeHistory(alice, one.r)).edges.map((e) => e.node);
    const [arrived] = (await treeHistory(alice, two.r)).edges.map((e) => e.node);
    expect(left).toMatchObject({ kind: 'MOVED', nodeId: one.a, oldParentId: one.r, newParentId: two.b });
    expect(arrived).toMatchObject({ kind: 'MOVED', nodeId: one.a, oldParentId: one.r, newParentId: two.b });
    expect((await nodeHistory(alice, one.a)).map((c) => c.kind)).toEqual(['MOVED', 'CREATED']);
  });

  it('pages newest first, and refuses a cursor of another history or a page size out of range', async () => {
    const { r, a } = await freshTree();
    for (let i = 1; i <= 4; i++) await run(alice, `mutation { updateNode(id: "${a}", name: "v${i}") { id } }`, {});
    const all = (await treeHistory(alice, r)).edges.map((e) => e.node.id);
    expect(all).toHaveLength(7);
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await treeHistory(alice, r, 3, after);
      seen.push(...page.edges.map((e) => e.node.id));
      expect(page.pageInfo.hasPreviousPage).toBe(after !== undefined);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor!;
    }
    expect(seen).toEqual(all);

    const firstTwo = okData<{ node: { history: { nodes: Change[]; pageInfo: { endCursor: string } } } }>(
      await alice(NODE_HISTORY, { id: a, first: 2 }),
    ).node.history;
    expect(firstTwo.nodes.map((c) => c.oldName)).toEqual(['v3', 'v2']);
    const rest = okData<{ node: { history: { nodes: Change[] } } }>(
      await alice(NODE_HISTORY, { id: a, first: 10, after: firstTwo.pageInfo.endCursor }),
    ).node.history.nodes;
    expect(rest.map((c) => c.kind)).toEqual(['UPDATED', 'UPDATED', 'CREATED']);

    const refusal = { message: 'after is not a cursor of this history', details: { field: 'after' } };
    expectError(
      await alice(TREE_HISTORY, { rootId: r, after: firstTwo.pageInfo.endCursor }),
      'BAD_USER_INPUT',
      refusal,
    );
    expectError(await alice(TREE_HISTORY, { rootId: r, after: 'bm9wZQ' }), 'BAD_USER_INPUT', refusal);
    // A position of the caller's own making, another node's, another list's, another tenant's: all refused.
    const crafted = Buffer.from(JSON.stringify(['h', 't', r, '3'])).toString('base64url');
    await run(alice, `mutation { deleteNode(id: "${r}-b") { deletedCount } }`, {});
    const deleted = (await run(alice, '{ deletedNodes(first: 1) { pageInfo { endCursor } } }', {})).deletedNodes as {
      pageInfo: { endCursor: string };
    };
    const elsewhere = await as({ sub: 'alice', tenant: 'elsewhere' });
    await create(elsewhere, r, null);
    await run(elsewhere, `mutation { updateNode(id: "${r}", name: "other") { id } }`, {});
    const theirs = (await treeHistory(elsewhere, r, 1)).pageInfo.endCursor!;
    for (const after of [crafted, deleted.pageInfo.endCursor, theirs]) {
      expectError(await alice(TREE_HISTORY, { rootId: r, after }), 'BAD_USER_INPUT', refusal);
    }
    expectError(
      await alice(NODE_HISTORY, { id: `${r}-a`, after: firstTwo.pageInfo.endCursor.slice(0, -2) }),
      'BAD_USER_INPUT',
      refusal,
    );
    expectError(await alice(TREE_HISTORY, { rootId: r, first: 0 }), 'BAD_USER_INPUT', {
      message: 'first must be in 1..1000, got 0',
      details: { field: 'first' },
    });
  });

  it('shows no history of a tree to a caller who may not read it, nor to another tenant', async () => {
    const { r, a } = await freshTree();
    const other = await freshTree();
    const reader = await as({ sub: 'carol', trees: { [other.r]: 'read' } });
    expect((await treeHistory(reader, r)).edges).toEqual([]);
    expect((await run(reader, NODE_HISTORY, { id: a })).node).toBeNull();
    expect((await treeHistory(reader, other.r)).edges).toHaveLength(3);

    // A node moved from a tree the reader may not read into one it may: its earlier changes stay hidden.
    await run(alice, `mutation { updateNode(id: "${a}", name: "secret") { id } }`, {});
    await run(alice, `mutation { reparent(id: "${a}", newParentId: "${other.b}") { id } }`, {});
    // Seen by the reader: the move as tree other.r recorded it, nothing of the tree it left, no older change.
    const [arrived] = (await treeHistory(alice, other.r)).edges.map((e) => e.node);
    const seen = (await run(reader, NODE_HISTORY, { id: a, first: 1 })).node as {
      history: { nodes: Change[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
    };
    expect(seen.history).toEqual({
      nodes: [
        {
          id: arrived!.id,
          kind: 'MOVED',
          nodeId: a,
          oldParentId: null,
          newParentId: other.b,
          position: arrived!.position,
          oldPosition: null,
          oldName: null,
          oldData: null,
          oldVersion: null,
          version: 3,
          count: arrived!.count,
          at: (arrived as Change & { at: string }).at,
          by: 'alice',
          node: { id: a, name: 'secret', data: { v: 1 } },
          job: null,
        },
      ],
      pageInfo: { hasNextPage: false, endCursor: seen.history.pageInfo.endCursor },
    });
    expect(await nodeHistory(reader, a)).toEqual(seen.history.nodes);
    // Whoever may read both trees sees the move as the tree it left recorded it, and where it was.
    expect((await nodeHistory(alice, a))[0]).toMatchObject({ kind: 'MOVED', oldParentId: r, oldName: 'secret' });

    const tenant = await as({ sub: 'alice', tenant: 'elsewhere' });
    expect((await treeHistory(tenant, r)).edges).toEqual([]);
    expect((await treeHistory(tenant, other.r)).edges).toEqual([]);
  });
});
