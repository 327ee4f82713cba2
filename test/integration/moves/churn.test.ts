/**
 * Churn in one tree: twelve clients move random nodes of a 157-node tree under random others,
 * one move after another each, all at once, through two server processes on one table, with
 * transactions of at most 10 items (so that most moves are jobs under the strategies that keep
 * places) and AWS's transaction conflicts emulated. Moves that overlap a job wait for it, and
 * contention waits its turn: fewer than 5 % of the moves answer CONFLICT (a move under its own
 * descendant answers CYCLE, as it must), and the tree is whole afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { prng } from '../../support/prng.js';
import { startTwoProcesses, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { loadInto } from '../../support/loadTree.js';
import { fullTree, okData, specIds } from '../../support/tree.js';
import { conflictMiddleware, TransactionsInFlight } from '../../support/transactionConflicts.js';

const CLIENTS = 12;
const MOVES_EACH = 6;
/** 1 + 6 + 30 + 120 nodes. */
const TREE = fullTree('c', [6, 5, 4]);
const IDS = specIds(TREE);
const REPARENT = `mutation($id: ID!, $to: ID!) { reparent(id: $id, newParentId: $to) { id } }`;
const JOBS = '{ jobs(first: 1000) { nodes { status } } }';
/** What a random move may answer besides success, whatever the interleaving. */
const EXPECTED = ['CYCLE', 'CONFLICT', 'DEPTH_LIMIT'];

/** A fresh seed per run (CHURN_SEED replays one); every failure message names it. */
const seed = Number(process.env.CHURN_SEED ?? Date.now() % 2 ** 31);

describe.each(STRATEGIES_UNDER_TEST)('churn: concurrent random moves in one tree (%s)', (strategy) => {
  const inFlight = new TransactionsInFlight();
  let servers: TestServer[] = [];

  beforeAll(async () => {
    const middleware = conflictMiddleware(inFlight);
    servers = await startTwoProcesses({ strategy, env: { TRANSACTION_ITEMS: '10' }, middleware });
    await loadInto(servers[0]!, [TREE]);
  });
  afterAll(async () => {
    for (const server of servers.reverse()) await server.close();
  });

  it('answers CONFLICT to fewer than 5 % of the moves, and leaves the tree whole', { timeout: 120_000 }, async () => {
    const random = prng(seed);
    const pick = () => IDS[1 + Math.floor(random() * (IDS.length - 1))]!;
    const codes: string[] = [];
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let i = 0; i < MOVES_EACH; i++) {
          const [id, to] = [pick(), pick()];
          const response = await servers[client % 2]!.gql(REPARENT, { id, to: id === to ? 'c' : to });
          codes.push(String(response.body.errors?.[0]?.extensions?.code ?? 'OK'));
        }
      }),
    );
    const context = `seed ${seed}: ${JSON.stringify(codes)}`;
    expect(
      codes.filter((code) => code !== 'OK' && !EXPECTED.includes(code)),
      context,
    ).toEqual([]);
    expect(codes.filter((code) => code === 'OK').length, context).toBeGreaterThan(CLIENTS * MOVES_EACH * 0.5);
    expect(codes.filter((code) => code === 'CONFLICT').length, context).toBeLessThan(CLIENTS * MOVES_EACH * 0.05);
    expect(inFlight.cancelled, 'transactions met in flight, and were tried again').toBeGreaterThan(0);
    await eventually(
      'the move jobs done',
      async () => okData(await servers[0]!.gql(JOBS)).jobs.nodes as Array<{ status: string }>,
      (jobs) => jobs.every((job) => job.status !== 'RUNNING'),
      30_000,
    );
    expect(await servers[0]!.verify(), context).toEqual([]);
  });
});
