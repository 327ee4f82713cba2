import { afterEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDynamo, type DynamoOptions } from '../../../src/dynamodb/client.js';
import { tableState, untilJobsDone } from '../../support/deleteJobTable.js';
import { startTestServer, STRATEGIES_UNDER_TEST, uniqueTable, type TestServer } from '../../support/server.js';
import { fullTree, okData, specIds } from '../../support/tree.js';
import { loadTree } from '../../support/loadTree.js';
import type { StrategyName } from '../../../src/storage/strategies/strategies.js';

/**
 * A delete too big for one transaction runs as a job: it claims the subtree level by level (the
 * first transaction writes the job record and claims the root), its accepting transaction
 * detaches the subtree, then it deletes bottom-up, each chunk fenced by the job's lease. Here the
 * process "dies" after its k-th transaction (every later DynamoDB write fails, as if it had
 * crashed), and the tests check what docs/design.md ("Jobs") promises at that instant (no
 * orphan, nothing reachable from a root that should be gone), and that another process gives the
 * job up (when it died before the delete was accepted: nothing is deleted, nothing stays
 * claimed) or finishes it (after): one started later, or one that was already running, without
 * any restart. (The long suite, `npm run test:long`; the writes that race a delete job:
 * deleteJob.test.ts.)
 */
const SUBTREE = fullTree('big', [3, 4, 4]); // 1 + 3 + 12 + 48 = 64 nodes: more than one transaction holds
const SHORT_LEASE = { JOB_LEASE_SECONDS: '1' };
const DYING_LEASE = { JOB_LEASE_SECONDS: '3' };
/** The transaction that accepts the delete (the detach): 1 claims the root, 3 more the levels below. */
const ACCEPTED_AT = 5;

/** Lets `allowed` TransactWriteItems through, then fails every write, like a dead process. */
function crashAfter(allowed: number) {
  let seen = 0;
  let armed = false;
  let crash!: () => void;
  const crashed = new Promise<void>((resolve) => (crash = resolve));
  const middleware: DynamoOptions['middleware'] = (stack) =>
    stack.add(
      (next, context) => async (args) => {
        if (armed && /^(TransactWrite|BatchWrite)/.test(String(context.commandName))) {
          if (seen >= allowed) {
            crash();
            throw Object.assign(new Error('simulated crash'), { name: 'SimulatedCrash' });
          }
          seen++;
        }
        return next(args);
      },
      { step: 'initialize', name: 'simulatedCrash' },
    );
  return { middleware, crashed, arm: () => (armed = true) };
}

/** The tree every case starts from, written straight to the table (loadTree.ts). */
async function loadFixture(table: string, strategy: StrategyName): Promise<void> {
  const { doc, client } = createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });
  try {
    await loadTree(doc, table, strategy, [{ id: 'keep', children: [SUBTREE, { id: 'keep.sibling' }] }]);
  } finally {
    client.destroy();
  }
}

describe.each(STRATEGIES_UNDER_TEST)('%s: a big delete interrupted by a crash', (strategy) => {
  let servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers) await server.close();
    servers = [];
  });

  /**
   * A process that will die after `allowed` transactions, on a table holding the subtree, armed;
   * with `alreadyUp`, a second process already running on the table.
   */
  async function dyingAfter(allowed: number, alreadyUp: boolean) {
    const table = uniqueTable();
    const crash = crashAfter(allowed);
    // Once the delete is accepted, the dying process's lease outlasts its slowest transaction on
    // a loaded machine (100 items under path): a lease that expired before the crash would let
    // the other process take the job over first, and the crash would never come. (Before, a
    // runner that lost its lease still writes: it releases its claims.)
    const env = allowed >= ACCEPTED_AT ? DYING_LEASE : SHORT_LEASE;
    const dying = await startTestServer({ strategy, table, middleware: crash.middleware, verifyOnClose: false, env });
    await loadFixture(table, strategy);
    if (alreadyUp) servers.push(await startTestServer({ strategy, table, env: SHORT_LEASE }));
    crash.arm();
    return { table, crash, dying };
  }

  // Claims: 1 transaction for the record and the root, then one per level below (3, 12, 48
  // nodes); the 5th accepts the delete (the detach); the deletions follow.
  it.each([
    [1, 'a process started later'],
    [4, 'a process that was already running'],
  ])(
    'gives the delete up when the process dies after %i transactions, before it was accepted: %s',
    async (allowed, finisher) => {
      const { table, crash, dying } = await dyingAfter(allowed, finisher === 'a process that was already running');

      // The process dies while the job claims the subtree: the delete is not applied (its
      // caller gets no answer but an error), and every read still finds the whole subtree.
      const response = dying.gql('mutation { deleteNode(id: "big") { deletedCount } }');
      await crash.crashed;
      const answer = await response;
      expect(answer.body.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      const crashed = await tableState(table);
      expect(crashed.nodes.get('big')?.deleting).toBeUndefined();
      expect(crashed.edges).toContain('big');
      expect(crashed.nodes.get('big')?.claim, 'the root is claimed').toEqual(expect.any(String));

      // Another process gives the job up once the dead runner's lease expires: every claim
      // released, the job FAILED, the tree as it was (the closing `tree verify` checks it whole).
      if (servers.length === 0) servers.push(await startTestServer({ strategy, table, env: SHORT_LEASE }));
      await dying.close();
      const after = await untilJobsDone(table);
      expect(after.jobs.map((job) => job.status)).toEqual(['FAILED']);
      expect([...after.nodes.values()].filter((node) => node.claim !== undefined)).toEqual([]);
      expect(after.nodes.size).toBe(specIds(SUBTREE).length + 2);
      // The subtree can be deleted again, at once.
      expect(okData(await servers[0]!.gql('mutation { deleteNode(id: "big") { deletedCount } }'))).toEqual({
        deleteNode: { deletedCount: 64 },
      });
    },
  );

  it.each([
    [5, 'a process started later'],
    [7, 'a process that was already running'],
  ])('leaves no orphan and nothing reachable after %i transactions, and %s finishes it', async (allowed, finisher) => {
    const alreadyUp = finisher === 'a process that was already running';
    const { table, crash, dying } = await dyingAfter(allowed, alreadyUp);

    // The detach committed: the delete is applied, with its count; its job is left running.
    const response = dying.gql('mutation { deleteNode(id: "big") { deletedCount job { kind total } } }');
    await crash.crashed;

    // The instant of the crash: no cycle, no orphan; the subtree is out of the tree, with a job
    // to finish it.
    const crashed = await tableState(table);
    for (const fact of crashed.facts.values()) expect(fact.problem, fact.id).toBeUndefined();
    const big = crashed.nodes.get('big');
    expect(big?.deleting, 'the subtree root is marked for deletion').toEqual(expect.any(String));
    expect(crashed.edges).not.toContain('big');
    expect(crashed.jobs).toHaveLength(1);

    // Another process takes the job over once the dead runner's lease expires.
    if (!alreadyUp) servers.push(await startTestServer({ strategy, table, env: SHORT_LEASE }));
    const next = servers[0]!;
    expect(okData(await response)).toEqual({ deleteNode: { deletedCount: 64, job: { kind: 'DELETE', total: 64 } } });
    await dying.close();
    const after = await untilJobsDone(table);
    expect([...after.nodes.keys()].sort()).toEqual(['keep', 'keep.sibling']);
    expect(after.jobs.map((job) => [job.status, job.total])).toEqual([['DONE', 64]]);
    expect(okData(await next.gql('{ node(id: "keep") { childCount children { nodes { id } } } }'))).toEqual({
      node: { childCount: 1, children: { nodes: [{ id: 'keep.sibling' }] } },
    });
    const gone = specIds(SUBTREE);
    expect(okData(await next.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: gone })).nodes).toEqual(
      gone.map(() => null),
    );
  });
});
