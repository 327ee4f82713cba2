import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { pauseTransaction, pauseWhen } from '../../support/pause.js';
import { startTestServer, STRATEGIES_UNDER_TEST, uniqueTable, type TestServer } from '../../support/server.js';
import { loadInto } from '../../support/loadTree.js';
import { expectError, fullTree, okData } from '../../support/tree.js';
import { traitsOf } from '../../support/traits.js';

/**
 * Move jobs accepted at once: a move too big for one transaction (TRANSACTION_ITEMS lowered to
 * 10) that goes no deeper (here: up, under the root), within one tree, is accepted by one
 * transaction that claims only the moved node; the job claims the rest, then rewrites it. Its
 * answer costs the same whatever the subtree's size. A write that read before it and commits
 * before the job reaches its node is found by the job's walk; a job that started from the open
 * jobs read before it plans again.
 */
const SMALL_BUDGET = { TRANSACTION_ITEMS: '10' };
const FIXTURE = [
  {
    id: 'r',
    children: [
      { id: 'src', children: [fullTree('m', [3, 3]), fullTree('big', [3, 3, 3]), fullTree('w', [3, 3])] },
      { id: 'dst' },
    ],
  },
];

type Cost = { requests: number; itemsWritten: number };
type Middleware = ReturnType<typeof pauseWhen>['middleware'];

const reparent = (id: string, parent: string) =>
  `mutation { reparent(id: "${id}", newParentId: "${parent}") { id depth ancestors { id } } }`;

/** Waits until every job of the table is done. */
const jobsDone = (server: TestServer) =>
  eventually(
    'every job done',
    async () => okData(await server.gql('{ jobs { nodes { kind status startedAt } } }')).jobs.nodes,
    (nodes: Array<{ kind: string; status: string; startedAt: string }>) => nodes.every((n) => n.status === 'DONE'),
  );

/** What became of each transaction of a server: `committed`, or its error and the items whose condition failed. */
function transactionOutcomes(): { outcomes: string[]; middleware: Middleware } {
  const outcomes: string[] = [];
  const middleware: Middleware = (stack) =>
    stack.add(
      (next, context) => async (args) => {
        const transaction = String(context.commandName).startsWith('TransactWrite');
        try {
          const output = await next(args);
          if (transaction) outcomes.push('committed');
          return output;
        } catch (error) {
          const reasons = (error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
          const items = ((args.input as { TransactItems?: unknown[] }).TransactItems ?? []).map((item) =>
            JSON.stringify(item),
          );
          const failed = items.filter((_, i) => reasons[i]?.Code === 'ConditionalCheckFailed');
          if (transaction) outcomes.push(`${String((error as Error).name)} ${failed.join(' ')}`);
          throw error;
        }
      },
      { step: 'initialize', name: 'transactionOutcomes' },
    );
  return { outcomes, middleware };
}

describe.each(STRATEGIES_UNDER_TEST.filter((s) => traitsOf(s).keepsPath))(
  '%s: move jobs accepted at once',
  (strategy) => {
    let servers: TestServer[] = [];
    afterEach(async () => {
      for (const server of servers.reverse()) await server.close();
      servers = [];
    });

    async function start(table: string, middleware?: ReturnType<typeof pauseWhen>['middleware']) {
      const server = await startTestServer({ strategy, table, env: SMALL_BUDGET, middleware });
      servers.push(server);
      return server;
    }

    it('answers a move of 40 nodes in the requests of a move of 13', async () => {
      const server = await start(uniqueTable());
      await loadInto(server, FIXTURE);
      // A first job activates the summary of the open jobs (one write and a wait): not measured.
      okData(await server.gql(reparent('w', 'r')));
      await jobsDone(server);
      const costs: Cost[] = [];
      for (const id of ['m', 'big']) {
        const response = await server.gql(reparent(id, 'r'));
        expect(okData(response).reparent).toEqual({ id, depth: 1, ancestors: [{ id: 'r' }] });
        costs.push(response.body.extensions!.dynamodb as Cost);
        await jobsDone(server);
      }
      expect(costs[1]!.requests).toBe(costs[0]!.requests);
      expect(costs[1]!.itemsWritten).toBe(costs[0]!.itemsWritten);
      const jobs = okData(await server.gql('{ jobs { nodes { kind nodeId total } } }')).jobs.nodes;
      expect(jobs).toEqual(
        expect.arrayContaining([
          { kind: 'MOVE', nodeId: 'm', total: 13 },
          { kind: 'MOVE', nodeId: 'big', total: 40 },
        ]),
      );
      const leaf = okData(await server.gql('{ node(id: "big.2.2.2") { depth ancestors { id } } }')).node;
      expect(leaf).toEqual({ depth: 4, ancestors: ['r', 'big', 'big.2', 'big.2.2'].map((id) => ({ id })) });
      expect(await server.verify()).toEqual([]);
    });

    it('answers a move one level deeper in the same requests whatever the size, keys no longer', async () => {
      const server = await start(uniqueTable());
      await loadInto(server, FIXTURE);
      okData(await server.gql(reparent('w', 'dst')));
      await jobsDone(server);
      const costs: Cost[] = [];
      for (const id of ['m', 'big']) {
        // Under w, now at its own depth: one level deeper.
        const response = await server.gql(reparent(id, 'w'));
        const ancestors = ['r', 'dst', 'w'].map((a) => ({ id: a }));
        expect(okData(response).reparent).toEqual({ id, depth: 3, ancestors });
        costs.push(response.body.extensions!.dynamodb as Cost);
        await jobsDone(server);
      }
      // Under nested-set, keys lengthen as nodes go deeper: such a move claims its subtree first,
      // an item for each of its nodes.
      expect(costs[1]!.itemsWritten === costs[0]!.itemsWritten).toBe(!traitsOf(strategy).keysGrow);
      const leaf = okData(await server.gql('{ node(id: "big.2.2.2") { depth ancestors { id } } }')).node;
      expect(leaf).toEqual({ depth: 6, ancestors: ['r', 'dst', 'w', 'big', 'big.2', 'big.2.2'].map((id) => ({ id })) });
      expect(await server.verify()).toEqual([]);
    });

    /**
     * A mover (transactions of 10 items: a move of m is a job) and a writer on one table whose
     * MAX_TREE_DEPTH is 5: m's leaves (at 4) reach it under w.
     */
    async function atTheLimit(middlewares: { mover?: Middleware; creator?: Middleware }) {
      const table = uniqueTable();
      const limit = { MAX_TREE_DEPTH: '5' };
      const mover = await startTestServer({
        strategy,
        table,
        env: { ...SMALL_BUDGET, ...limit },
        middleware: middlewares.mover,
      });
      servers.push(mover);
      await loadInto(mover, FIXTURE);
      // The default budget: its writes take one transaction.
      const creator = await startTestServer({ strategy, table, env: limit, middleware: middlewares.creator });
      servers.push(creator);
      return { mover, creator };
    }
    const CREATE_AT_THE_LIMIT =
      'mutation { createNode(input: { id: "late", parentId: "m.0.0", name: "late" }) { id depth } }';
    const OVER_THE_LIMIT = {
      message: /^the write would put a node at depth 6; the limit is 5$/,
      details: { depth: 6, maxDepth: 5 },
    };

    it.each([
      ['a create', CREATE_AT_THE_LIMIT],
      ['a small move', 'mutation { reparent(id: "dst", newParentId: "m.0.0") { id depth } }'],
    ])('refuses %s at the depth limit, read before a move took its new parent deeper', async (_, write) => {
      // The mover's job held at its first claims (the transaction after the move's own), when
      // the move is accepted at once (not under nested-set, where keys lengthen: it claims first).
      const job = pauseTransaction(2);
      const held = pauseWhen((command) => command.startsWith('TransactWrite'));
      const { outcomes, middleware: recording } = transactionOutcomes();
      const { mover, creator } = await atTheLimit({
        mover: job.middleware,
        creator: (stack) => {
          held.middleware(stack);
          recording(stack);
        },
      });
      const atOnce = !traitsOf(strategy).keysGrow;
      held.arm();
      const written = creator.gql(write);
      await held.reached;
      if (atOnce) job.arm();
      expect(okData(await mover.gql(reparent('m', 'w'))).reparent.depth).toBe(3);
      if (atOnce) {
        await job.reached;
        // m.0.0 is not claimed yet: the write counted itself on src, which the move counted itself on first.
        held.release();
        await eventually(
          "the write's transaction",
          async () => outcomes,
          (seen) => seen.length > 0,
        );
        try {
          expect(outcomes[0]).toMatch(/^TransactionCanceledException .*"N#src"/);
        } finally {
          job.release();
        }
      } else {
        held.release();
      }
      // Planned again (once the job is done), it is at 6.
      expectError(await written, 'DEPTH_LIMIT', OVER_THE_LIMIT);
      await jobsDone(mover);
      expect(okData(await mover.gql('{ node(id: "m.0.0") { depth childCount } }')).node).toEqual({
        depth: 5,
        childCount: 0,
      });
      expect(await mover.verify()).toEqual([]);
    });

    it('refuses a deeper move whose subtree a create at the limit deepened since it read its height', async () => {
      // The move's first transaction (its job's), held once it has read and planned.
      const moving = pauseWhen(
        (command, input) => command.startsWith('TransactWrite') && JSON.stringify(input).includes('"JOB#'),
      );
      const { mover, creator } = await atTheLimit({ mover: moving.middleware });
      moving.arm();
      const moved = mover.gql(reparent('m', 'w'));
      await moving.reached;
      expect(okData(await creator.gql(CREATE_AT_THE_LIMIT)).createNode).toEqual({ id: 'late', depth: 5 });
      moving.release();
      // Its transaction fails on src's count; planned again, it finds late 3 levels below m.
      expectError(await moved, 'DEPTH_LIMIT', OVER_THE_LIMIT);
      await jobsDone(mover);
      expect(okData(await mover.gql('{ node(id: "m") { depth } }')).node).toEqual({ depth: 2 });
      expect(await mover.verify()).toEqual([]);
    });

    it('finds a node added by a write that read before the move and committed before the job got there', async () => {
      const table = uniqueTable();
      // The mover's job is held at its first claims, the transaction after the move's own.
      const job = pauseTransaction(2);
      const mover = await start(table, job.middleware);
      await loadInto(mover, FIXTURE);
      const create = pauseWhen((command) => command.startsWith('TransactWrite'));
      const creator = await start(table, create.middleware);
      okData(await creator.gql('{ node(id: "m.0.0") { id } }'));

      create.arm();
      const created = creator.gql(
        'mutation { createNode(input: { id: "late", parentId: "m.0.0", name: "late" }) { id depth } }',
      );
      await create.reached;
      job.arm();
      expect(okData(await mover.gql(reparent('m', 'r'))).reparent.depth).toBe(1);
      await job.reached;
      // Planned before the move, it commits under m.0.0, which the job has not claimed yet.
      create.release();
      expect(okData(await created).createNode).toEqual({ id: 'late', depth: 5 });
      job.release();
      await jobsDone(mover);
      for (const server of [mover, creator]) {
        const late = okData(await server.gql('{ node(id: "late") { depth ancestors { id } } }')).node;
        expect(late).toEqual({ depth: 4, ancestors: ['r', 'm', 'm.0', 'm.0.0'].map((id) => ({ id })) });
      }
      const m = okData(await creator.gql('{ node(id: "m") { descendants(first: 100) { nodes { id } } } }')).node;
      expect(m.descendants.nodes).toHaveLength(13);
      expect(await mover.verify()).toEqual([]);
    });

    it('refuses a small move, read before the move, that would put the new parent below the moved node', async () => {
      const table = uniqueTable();
      const mover = await start(table);
      await loadInto(mover, [
        {
          id: 'r',
          children: [
            { id: 'src', children: [{ id: 's2', children: [fullTree('m', [3, 3])] }] },
            { id: 'c', children: [{ id: 'b' }] },
          ],
        },
      ]);
      // A small move (one transaction on a server with the default budget), held once planned.
      const held = pauseWhen((command) => command.startsWith('TransactWrite'));
      const other = await startTestServer({ strategy, table, middleware: held.middleware });
      servers.push(other);
      held.arm();
      const small = other.gql(reparent('c', 'm.0.0'));
      await held.reached;
      // The big move, no deeper, within the tree: accepted at once.
      expect(okData(await mover.gql(reparent('m', 'b'))).reparent.depth).toBe(3);
      held.release();
      // Its transaction fails on b, which the move changed (b's copies are its condition); planned
      // again, it finds m.0.0 below c.
      expectError(await small, 'CYCLE', { message: 'cannot move "c" under its own descendant "m.0.0"' });
      await jobsDone(mover);
      expect(await mover.verify()).toEqual([]);
    });

    it('makes a job started from the open jobs read before the move plan again, and wait for it', async () => {
      const table = uniqueTable();
      const mover = await start(table);
      await loadInto(mover, FIXTURE);
      // The delete's first transaction (its job's record), held once it has read and planned.
      const deleting = pauseWhen(
        (command, input) => command.startsWith('TransactWrite') && JSON.stringify(input).includes('"JOB#'),
      );
      // What became of each of the deleter's transactions.
      const { outcomes, middleware: recording } = transactionOutcomes();
      const deleter = await start(table, (stack) => {
        deleting.middleware(stack);
        recording(stack);
      });
      deleting.arm();
      const deleted = deleter.gql('mutation { deleteNode(id: "m.0") { deletedCount } }');
      await deleting.reached;
      expect(okData(await mover.gql(reparent('m', 'r'))).reparent.depth).toBe(1);
      deleting.release();
      expect(okData(await deleted).deleteNode).toEqual({ deletedCount: 4 });
      // Its first start failed on the open jobs' epoch, which the move had moved on.
      expect(outcomes[0]).toMatch(/^TransactionCanceledException .*"OPEN"/);
      const jobs = await jobsDone(mover);
      const started = (kind: string) => jobs.filter((j) => j.kind === kind).map((j) => j.startedAt);
      // The delete planned again once the move had started: its job is the later one.
      expect(started('DELETE')).toHaveLength(1);
      expect(started('DELETE')[0]! > started('MOVE')[0]!).toBe(true);
      const m = okData(await mover.gql('{ node(id: "m") { childCount descendantCount ancestors { id } } }')).node;
      expect(m).toEqual({ childCount: 2, descendantCount: 8, ancestors: [{ id: 'r' }] });
      expect(await mover.verify()).toEqual([]);
    });
  },
);
