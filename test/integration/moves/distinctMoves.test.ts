/**
 * Concurrent moves of distinct subtrees never fail because of each other: sixteen clients move
 * sixteen subtrees between the same two parents and back, all at once, through two server
 * processes on one table, with transactions of at most 10 items (so that each move is a job
 * under the strategies that keep places) and with AWS's transaction conflicts emulated (a
 * transaction naming an item that another in flight names is cancelled). Every move answers, and
 * the tree is whole afterwards. The same in sixteen different trees, where no transaction meets
 * another at all: writes and jobs in different trees share no item. And in one tree under
 * sixteen branches, each client moving a subtree and creating nodes in its own: under `path`,
 * `closure` and `nested-set` no transaction meets another either (a write names nothing above its
 * parent); under `adjacency` every write names its chain up to the root (docs/design.md,
 * section 4), so they meet there and wait their turn, and none is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { startTwoProcesses, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { loadInto } from '../../support/loadTree.js';
import { fullTree, okData, type TreeSpec } from '../../support/tree.js';
import { conflictMiddleware, TransactionsInFlight } from '../../support/transactionConflicts.js';
import { traitsOf } from '../../support/traits.js';

const CLIENTS = 16;
/** A subtree of 4 nodes: too big for a move in 10 items under path, closure and nested-set. */
const subtree = (id: string): TreeSpec => fullTree(id, [3]);

const THERE_AND_BACK = `mutation($id: ID!, $a: ID!, $b: ID!) {
  there: reparent(id: $id, newParentId: $b) { id }
  back: reparent(id: $id, newParentId: $a) { id }
}`;
const JOBS = '{ jobs(first: 1000) { nodes { id status } } }';

describe.each(STRATEGIES_UNDER_TEST)('concurrent moves of distinct subtrees (%s)', (strategy) => {
  // The transactions in flight, as DynamoDB tracks them: the table's, both processes'.
  const inFlight = new TransactionsInFlight();
  let servers: TestServer[] = [];

  beforeAll(async () => {
    const middleware = conflictMiddleware(inFlight);
    servers = await startTwoProcesses({ strategy, env: { TRANSACTION_ITEMS: '10' }, middleware });
    const clients = Array.from({ length: CLIENTS }, (_, i) => i);
    // Written straight into the table (the items every create would write: verify checks them).
    await loadInto(servers[0]!, [
      {
        id: 'one',
        children: [{ id: 'one-A', children: clients.map((i) => subtree(`one-s${i}`)) }, { id: 'one-B' }],
      },
      {
        id: 'wide',
        children: clients.map((i) => ({
          id: `w${i}`,
          children: [{ id: `w${i}-A`, children: [subtree(`w${i}-s`)] }, { id: `w${i}-B` }],
        })),
      },
      ...clients.map((i) => ({
        id: `t${i}`,
        children: [{ id: `t${i}-A`, children: [subtree(`t${i}-s`)] }, { id: `t${i}-B` }],
      })),
    ]);
  });
  afterAll(async () => {
    for (const server of servers.reverse()) await server.close();
  });

  /**
   * Every client moves its subtree there and back `rounds` times (and, with `creates`, creates as
   * many nodes under its own parent A meanwhile); the answers' error codes.
   */
  const moveAll = async (moves: Array<{ id: string; a: string; b: string }>, rounds: number, creates = 0) => {
    const codes: string[] = [];
    const note = (response: { body: { errors?: Array<{ extensions?: { code?: unknown } }> } }) => {
      for (const error of response.body.errors ?? []) codes.push(String(error.extensions?.code));
    };
    await Promise.all(
      moves.map(async (move, i) => {
        for (let round = 0; round < rounds; round++) note(await servers[i % 2]!.gql(THERE_AND_BACK, move));
      }),
    );
    await Promise.all(
      moves.map(async (move, i) => {
        for (let n = 0; n < creates; n++) {
          const input = { id: `${move.id}-new${n}`, parentId: move.a, name: 'new' };
          note(
            await servers[i % 2]!.gql('mutation($input: CreateNodeInput!) { createNode(input: $input) { id } }', {
              input,
            }),
          );
        }
      }),
    );
    const running = async () => {
      const jobs: Array<{ status: string }> = okData(await servers[0]!.gql(JOBS)).jobs.nodes;
      return jobs.filter((job) => job.status === 'RUNNING').length;
    };
    await eventually('the move jobs done', running, (count) => count === 0, 30_000);
    return codes;
  };

  it('between the same two parents: none refused, the tree whole', async () => {
    const moves = Array.from({ length: CLIENTS }, (_, i) => ({ id: `one-s${i}`, a: 'one-A', b: 'one-B' }));
    expect(await moveAll(moves, 1)).toEqual([]);
    expect(inFlight.cancelled, 'transactions met in flight, and were tried again').toBeGreaterThan(0);
    expect(await servers[0]!.verify()).toEqual([]);
  });

  it('in one tree, each in a branch of its own: none refused, none met another but on adjacency roots', async () => {
    const before = { passed: inFlight.passed, cancelled: inFlight.cancelled };
    const moves = Array.from({ length: CLIENTS }, (_, i) => ({ id: `w${i}-s`, a: `w${i}-A`, b: `w${i}-B` }));
    expect(await moveAll(moves, 1, 2)).toEqual([]);
    expect(inFlight.passed - before.passed, 'transactions committed').toBeGreaterThanOrEqual(CLIENTS * 4);
    const cancelled = inFlight.cancelled - before.cancelled;
    if (traitsOf(strategy).keepsPath) expect(cancelled, 'transactions cancelled for another in flight').toBe(0);
    expect(await servers[0]!.verify()).toEqual([]);
  });

  it('in as many trees: none refused, no transaction met another, the tree whole', async () => {
    const before = { passed: inFlight.passed, cancelled: inFlight.cancelled };
    const moves = Array.from({ length: CLIENTS }, (_, i) => ({ id: `t${i}-s`, a: `t${i}-A`, b: `t${i}-B` }));
    expect(await moveAll(moves, 1)).toEqual([]);
    expect(inFlight.passed - before.passed, 'transactions committed').toBeGreaterThanOrEqual(CLIENTS * 2);
    expect(inFlight.cancelled - before.cancelled, 'transactions cancelled for another in flight').toBe(0);
    expect(await servers[0]!.verify()).toEqual([]);
  });
});
