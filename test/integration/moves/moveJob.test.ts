import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { snapshot } from '../../support/invariants.js';
import { pauseTransaction, pauseWhen } from '../../support/pause.js';
import { startTestServer, STRATEGIES_UNDER_TEST, uniqueTable, type TestServer } from '../../support/server.js';
import { loadInto } from '../../support/loadTree.js';
import { expectError, fullTree, okData, specIds, type ExpectedError } from '../../support/tree.js';
import { traitsOf } from '../../support/traits.js';
import { staleOpenJobs } from '../../support/staleOpenJobs.js';

/**
 * Moves too big for one transaction (TRANSACTION_ITEMS lowered to 10, so that 13 nodes are a
 * job under path, closure and nested set): the job claims the subtree (3 transactions: its
 * record with the moved node, then each level below), commits the truth as it accepts the move
 * (the 4th) and answers; it then rewrites the projection. A fault middleware pauses the job after
 * some of its chunks, and another process then reads exactly what it reads once the job is done.
 */
const ACCEPTED = 4;
const MOVED = fullTree('m', [3, 3]); // 13 nodes
const FIXTURE = [
  { id: 'src', children: [MOVED, { id: 'src.x' }] },
  { id: 'dst', children: [{ id: 'd1', children: [{ id: 'd2' }] }] },
];
const LOOKED_AT = ['src', 'src.x', 'dst', 'd1', 'd2', ...specIds(MOVED)];
const SMALL_BUDGET = { TRANSACTION_ITEMS: '10' };
const REPARENT = 'mutation { reparent(id: "m", newParentId: "d2") { id depth rootId ancestors { id } } }';
const NESTED =
  '{ roots { nodes { id children(first: 10) { nodes { id name children(first: 10) { nodes { id ' +
  'children(first: 10) { nodes { id children(first: 10) { nodes { id } } } } } } } } } } }';
const PENDING = `{ nodes(ids: ["m", "m.0.1", "d2", "src"]) { id pendingJob { kind status nodeId } } }`;

/** How a write that meets the running move job is refused once it has waited for it. */
const overlapRefusal = (doing: string): ExpectedError => ({
  message: new RegExp(
    `^${doing.replace(/[.]/g, '\\.')} overlaps the subtree that job \\S+ is moving or deleting, ` +
      'which made no progress for 6 s; nothing was applied: try again once the job is done$',
  ),
  details: { jobId: expect.any(String) },
});

/** Every read of the looked-at nodes, with small pages so that cursors are exercised too. */
const view = (server: TestServer) =>
  snapshot(server, LOOKED_AT, { childrenPage: 2, descendantsPage: 3, followPage: 4 });

describe.each(STRATEGIES_UNDER_TEST)('%s: moves as jobs', (strategy) => {
  let servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.reverse()) await server.close();
    servers = [];
  });

  async function start(
    env: Record<string, string>,
    table: string,
    middleware?: ReturnType<typeof pauseTransaction>['middleware'],
  ) {
    const server = await startTestServer({ strategy, table, env, middleware });
    servers.push(server);
    return server;
  }

  it.each([ACCEPTED + 1, ACCEPTED + 6])(
    'reads from another process during a move paused at transaction %i agree with the tree after it',
    async (nth) => {
      const table = uniqueTable();
      const pause = pauseTransaction(nth);
      const writer = await start(SMALL_BUDGET, table, pause.middleware);
      await loadInto(writer, FIXTURE);
      const reader = await start({}, table);

      pause.arm();
      // A move that writes O(1) items (adjacency) is never a job: nothing to pause.
      if (!traitsOf(strategy).keepsPath) pause.release();
      const answer = okData(await writer.gql(REPARENT));
      expect(answer.reparent).toEqual({
        id: 'm',
        depth: 3,
        rootId: 'dst',
        ancestors: [{ id: 'dst' }, { id: 'd1' }, { id: 'd2' }],
      });
      const jobs = okData(await writer.gql('{ jobs { nodes { kind status nodeId } } }')).jobs.nodes;
      if (!traitsOf(strategy).keepsPath) {
        expect(jobs).toEqual([]);
        return;
      }
      await pause.reached;
      const during = await view(reader);
      // Children nested four levels deep (read in bulk once the job is done, per parent during it).
      const nestedDuring = okData(await reader.gql(NESTED)).roots;
      const pending = okData(await reader.gql(PENDING)).nodes;
      expect(pending).toEqual([
        { id: 'm', pendingJob: { kind: 'MOVE', status: 'RUNNING', nodeId: 'm' } },
        { id: 'm.0.1', pendingJob: { kind: 'MOVE', status: 'RUNNING', nodeId: 'm' } },
        { id: 'd2', pendingJob: null },
        { id: 'src', pendingJob: null },
      ]);

      pause.release();
      await eventually(
        'the move job done',
        async () => okData(await reader.gql('{ jobs { nodes { status } } }')).jobs.nodes,
        (nodes: Array<{ status: string }>) => nodes.length === 1 && nodes[0]!.status === 'DONE',
      );
      const after = await view(reader);
      expect(during).toEqual(after);
      expect(nestedDuring).toEqual(okData(await reader.gql(NESTED)).roots);
      expect(after.get('m')).toMatchObject({ parentId: 'd2', depth: 3, rootId: 'dst', ancestors: ['dst', 'd1', 'd2'] });
      expect(after.get('m.2.2')).toMatchObject({ depth: 5, rootId: 'dst' });
      expect(after.get('src')?.descendants).toEqual([{ id: 'src.x', depth: 1 }]);
      expect(after.get('dst')?.descendants).toHaveLength(2 + 13);
      expect(okData(await reader.gql(PENDING)).nodes.every((n: { pendingJob: unknown }) => n.pendingJob === null)).toBe(
        true,
      );
    },
  );

  it('makes writes that overlap an open move wait, then answer CONFLICT; others go through', async () => {
    const table = uniqueTable();
    const pause = pauseTransaction(ACCEPTED + 2);
    const writer = await start(SMALL_BUDGET, table, pause.middleware);
    await loadInto(writer, FIXTURE);
    const other = await start({}, table);
    pause.arm();
    if (!traitsOf(strategy).keepsPath) pause.release();
    okData(await writer.gql(REPARENT));
    if (!traitsOf(strategy).keepsPath) return;
    await pause.reached;

    const writes = [
      'creating "new"',
      'moving "m.1"',
      'moving "src.x"',
      'moving "d1"',
      'deleting "m.0"',
      'deleting "dst"',
      'updating "m.0"',
    ];
    const overlapping = await Promise.all([
      other.gql('mutation { createNode(input: { id: "new", parentId: "m.0", name: "new" }) { id } }'),
      other.gql('mutation { reparent(id: "m.1", newParentId: "src") { id } }'),
      other.gql('mutation { reparent(id: "src.x", newParentId: "m.2") { id } }'),
      other.gql('mutation { reparent(id: "d1", newParentId: "src") { id } }'),
      other.gql('mutation { deleteNode(id: "m.0") { deletedCount } }'),
      other.gql('mutation { deleteNode(id: "dst") { deletedCount } }'),
      // A rename of a node the job claims waits as well: it is then recorded in the tree the
      // node is in, once the job has rewritten it.
      other.gql('mutation { updateNode(id: "m.0", name: "too soon") { id } }'),
    ]);
    overlapping.forEach((response, i) => expectError(response, 'CONFLICT', overlapRefusal(writes[i]!)));
    // Structural writes elsewhere (its old place too).
    okData(await other.gql('mutation { createNode(input: { id: "src.y", parentId: "src", name: "y" }) { id } }'));
    okData(await other.gql('mutation { reparent(id: "src.x", newParentId: "src.y") { id } }'));

    // A write that waits goes through once the job is done.
    const waiting = other.gql(
      'mutation { createNode(input: { id: "late", parentId: "m.0", name: "late" }) { id depth } }',
    );
    const renaming = other.gql('mutation { updateNode(id: "m.0", name: "renamed") { name } }');
    setTimeout(pause.release, 300);
    expect(okData(await waiting).createNode).toEqual({ id: 'late', depth: 5 });
    expect(okData(await renaming).updateNode).toEqual({ name: 'renamed' });
    const after = await view(other);
    expect(after.get('m.0')).toMatchObject({ name: 'renamed', depth: 4, childCount: 4 });
    expect(after.get('src')?.descendants).toEqual([
      { id: 'src.y', depth: 1 },
      { id: 'src.x', depth: 2 },
    ]);
  });

  it('refuses a move planned from a list of open jobs read before a job opened and a node read after it', async () => {
    // One BatchGetItem reads the summary of the open jobs and the nodes at slightly different
    // instants: a fault serves the writer the summary as it was before the job opened (no job
    // yet: none), with the nodes as they are.
    const table = uniqueTable();
    const pause = pauseTransaction(ACCEPTED + 1);
    const mover = await start(SMALL_BUDGET, table, pause.middleware);
    await loadInto(mover, FIXTURE);
    const stale = staleOpenJobs();
    const writer = await start({}, table, stale.middleware);
    stale.capture();
    okData(await writer.gql('{ node(id: "m") { id } }'));

    pause.arm();
    if (!traitsOf(strategy).keepsPath) pause.release();
    okData(await mover.gql(REPARENT));
    if (!traitsOf(strategy).keepsPath) return;
    await pause.reached;
    // The job is open, m already under d2 in the truth, its path not yet rewritten.
    stale.replay();
    const moved = await writer.gql('mutation { reparent(id: "m", newParentId: "src.x") { id } }');
    expect(stale.replayed()).toBe(true);
    // Planned again from a fresh list, it meets the job: it waits, then answers CONFLICT.
    expectError(moved, 'CONFLICT', overlapRefusal('moving "m"'));
    pause.release();
    await eventually(
      'the move job done',
      async () => okData(await writer.gql('{ jobs { nodes { status } } }')).jobs.nodes,
      (nodes: Array<{ status: string }>) => nodes.every((n) => n.status === 'DONE'),
    );
    expect(okData(await writer.gql('{ node(id: "m.2.2") { depth ancestors { id } } }')).node).toEqual({
      depth: 5,
      ancestors: ['dst', 'd1', 'd2', 'm', 'm.2'].map((id) => ({ id })),
    });
  });

  it('counts a level added under a node read as a leaf before its claim: the depth limit holds', async () => {
    if (!traitsOf(strategy).keepsPath) return; // a move that writes O(1) items is never a job
    // m's leaves are at depth 3; under d2 they would be at 5, the limit. A child added under a
    // leaf after the leaves were read and before their claim commits would land at 6.
    const table = uniqueTable();
    const leaves = pauseWhen(
      (command, input) => command.startsWith('TransactWrite') && JSON.stringify(input).includes('"N#m.0.0"'),
    );
    const writer = await start({ ...SMALL_BUDGET, MAX_TREE_DEPTH: '5' }, table, leaves.middleware);
    await loadInto(writer, FIXTURE);
    leaves.arm();
    const moved = writer.gql(REPARENT);
    await leaves.reached;
    okData(
      await writer.gql(
        'mutation { createNode(input: { id: "m.0.0.late", name: "late", parentId: "m.0.0" }) { depth } }',
      ),
    );
    leaves.release();
    expectError(await moved, 'DEPTH_LIMIT', {
      message: 'the write would put a node at depth 6; the limit is 5',
      details: { depth: 6, maxDepth: 5 },
    });
    const m = okData(await writer.gql('{ node(id: "m.0.0.late") { depth rootId } }')).node;
    expect(m).toEqual({ depth: 4, rootId: 'src' });
  });
});
