/**
 * Respacing sibling positions (`tree reindex --respace`, TreeStore.respace) under every
 * strategy: children whose positions grew long (many inserts into one gap) get short, evenly
 * spaced ones in the same order, their subtrees with them; while it runs, the order read never
 * changes and writes that would place a node among those children answer CONFLICT (and only
 * those: the same under every strategy); then the
 * parent takes children again, and the table verifies.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDynamo, type Dynamo } from '../../../src/dynamodb/client.js';
import { createStore } from '../../../src/storage/store/createStore.js';
import { loadTree } from '../../support/loadTree.js';
import { pauseTransaction } from '../../support/pause.js';
import {
  plannedRequests,
  startTestServer,
  STRATEGIES_UNDER_TEST,
  type GraphQLResponse,
  type TestServer,
} from '../../support/server.js';
import { childIds, createNode, createNodeRaw, expectError, okData, type TreeSpec } from '../../support/tree.js';
import { runTree } from '../../support/treeCli.js';
import { DAY_MS } from '../../../src/durations.js';

/** Positions that many inserts into one gap leave: 18 characters, in order. */
const crowded = (i: number) => `a0${'V'.repeat(15)}${'123456789'[i]}`;

/** `prefix` with a first child and 9 at crowded positions after it, the fourth of those with a subtree of 3 levels. */
function crowdedFamily(prefix: string): TreeSpec {
  const children: TreeSpec[] = Array.from({ length: 9 }, (_, i) => ({ id: `${prefix}-${i}`, position: crowded(i) }));
  children[3]!.children = [
    { id: `${prefix}-3a`, children: [{ id: `${prefix}-3aa` }, { id: `${prefix}-3ab` }] },
    { id: `${prefix}-3b` },
  ];
  return { id: prefix, children: [{ id: `${prefix}-first`, position: 'a0' }, ...children] };
}

const POSITIONS = 'query($id: ID!) { node(id: $id) { children(first: 100) { nodes { id position version } } } }';
const PREORDER =
  'query($id: ID!) { node(id: $id) { descendants(order: PREORDER, first: 100) { nodes { id depth } } } }';
const REORDER =
  'mutation($id: ID!, $to: ID, $before: ID) { reparent(id: $id, newParentId: $to, before: $before) { id } }';
const CREATE_NODES =
  'mutation($parentId: ID) { ' +
  'createNodes(input: { parentId: $parentId, nodes: [{ id: "held-many", name: "many" }] }) { nodes { id } } }';

interface Child {
  id: string;
  position: string;
  version: number;
}

describe.each(STRATEGIES_UNDER_TEST)('%s: respacing sibling positions', (strategy) => {
  let server: TestServer;
  let dynamo: Dynamo;

  beforeAll(async () => {
    server = await startTestServer({ strategy });
    dynamo = createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });
    const calm = { id: 'calm', children: [{ id: 'calm-1' }, { id: 'calm-2' }] };
    // Two siblings in one slot (concurrent inserts can leave that): ordered by id.
    const tie = {
      id: 'tie',
      children: [
        { id: 'tie-b', position: 'a1' },
        { id: 'tie-a', position: 'a1', children: [{ id: 'tie-a1' }] },
        { id: 'tie-c', position: 'a2' },
      ],
    };
    await loadTree(dynamo.doc, server.table, strategy, [crowdedFamily('cli'), crowdedFamily('held'), calm, tie]);
  }, 60_000);
  afterAll(async () => {
    dynamo?.client.destroy();
    await server?.close();
  });

  const children = async (id: string): Promise<Child[]> =>
    okData<{ node: { children: { nodes: Child[] } } }>(await server.gql(POSITIONS, { id })).node.children.nodes;
  const preorder = async (id: string) =>
    okData<{ node: { descendants: { nodes: unknown[] } } }>(await server.gql(PREORDER, { id })).node.descendants.nodes;

  it('holds the parent while it respaces: the order never changes, writes among its children CONFLICT', async () => {
    const pause = pauseTransaction(3);
    const paused = createDynamo({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      middleware: pause.middleware,
    });
    const store = createStore({
      doc: paused.doc,
      table: server.table,
      strategy,
      maxTreeDepth: 64,
      cursorSecret: server.config.cursorSecret,
      jobLeaseMs: 1000,
      transactionItems: 100,
      changeRetentionMs: DAY_MS,
      undoRetentionMs: 7 * DAY_MS,
    });
    try {
      const order = (await children('held')).map((c) => c.id);
      pause.arm();
      // The hold, the last child's reorder, then paused before the second to last's.
      const respacing = store.respace('held');
      await pause.reached;
      expect((await children('held')).map((c) => c.id)).toEqual(order);
      // Refused once the parent is read, saying why, rather than after re-planning against the hold.
      const refused = (response: GraphQLResponse) => {
        expectError(response, 'CONFLICT', {
          message:
            'the children of "held" are being respaced (tree reindex --respace); nothing was ' +
            'applied: try again once it is done',
        });
        expect(response.body.errors?.[0]?.message).toContain('"held" are being respaced');
        // One request: the parent (a root), read with the open jobs; no transaction is tried.
        expect(plannedRequests(response)).toBe(1);
      };
      refused(await createNodeRaw(server, { id: 'held-late', parentId: 'held', name: 'late' }));
      refused(await server.gql(REORDER, { id: 'held-0', to: 'held', before: 'held-first' }));
      refused(await server.gql(REORDER, { id: 'calm-1', to: 'held' }));
      refused(await server.gql(CREATE_NODES, { parentId: 'held' }));
      // Moving a child away, writing below the children or elsewhere, is not refused.
      okData(await server.gql(REORDER, { id: 'held-8', to: 'calm' }));
      await createNode(server, { id: 'held-3c', parentId: 'held-3', name: 'below a child' });
      await createNode(server, { id: 'calm-3', parentId: 'calm', name: 'calm 3' });
      pause.release();
      const result = await respacing;
      expect(result.respaced).toBe(10);
      const after = await children('held');
      expect(after.map((c) => c.id)).toEqual(order.filter((id) => id !== 'held-8'));
      expect(Math.max(...after.map((c) => c.position.length))).toBeLessThanOrEqual(2);
      await createNode(server, { id: 'held-late', parentId: 'held', name: 'late' });
      expect(await server.verify()).toEqual([]);
    } finally {
      pause.release();
      paused.client.destroy();
    }
  }, 120_000);
  it('gives a crowded group short positions in the same order, through `tree reindex --respace`', async () => {
    const before = await children('cli');
    const calm = await children('calm');
    const outline = await preorder('cli');
    expect(Math.max(...before.map((c) => c.position.length))).toBe(18);

    const run = await runTree(server, ['reindex', '--to', strategy, '--respace']);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('13 node(s) under 2 parent(s) given short positions');

    const after = await children('cli');
    expect(after.map((c) => c.id)).toEqual(before.map((c) => c.id));
    expect(Math.max(...after.map((c) => c.position.length))).toBeLessThanOrEqual(2);
    expect(after.map((c) => c.version)).toEqual(before.map((c) => c.version + 1));
    // The subtrees came along (under nested-set, their document keys were rewritten).
    expect(await preorder('cli')).toEqual(outline);
    // Siblings that shared a position have their own now, in the order they had.
    const tie = await children('tie');
    expect(tie.map((c) => c.id)).toEqual(['tie-a', 'tie-b', 'tie-c']);
    expect(new Set(tie.map((c) => c.position)).size).toBe(3);
    expect(await preorder('tie')).toEqual([
      { id: 'tie-a', depth: 1 },
      { id: 'tie-a1', depth: 2 },
      { id: 'tie-b', depth: 1 },
      { id: 'tie-c', depth: 1 },
    ]);
    // A group with no long position is left alone.
    expect(await children('calm')).toEqual(calm);
    // The parent takes children again, between the new positions too.
    const added = await createNode(server, { id: 'cli-new', parentId: 'cli', name: 'new', after: 'cli-0' });
    expect(added.position.length).toBeLessThanOrEqual(7);
    expect((await childIds(server, 'cli')).slice(0, 3)).toEqual(['cli-first', 'cli-0', 'cli-new']);
    expect(await server.verify()).toEqual([]);
  }, 120_000);
});
