import { afterAll, afterEach, beforeAll } from 'vitest';
import { QUICK_START_JAVA_OPTIONS, startDynamoLocal, type DynamoLocal } from '../../src/dynamodb/dynamoLocal.js';
import { freePort } from './globalSetup.js';
import { STRATEGIES_UNDER_TEST, startTestServer, type TestServer } from './server.js';
import { traitsOf } from './traits.js';
import { okData } from './tree.js';

/** JOB_RUNNER=worker: servers record jobs and leave them to a worker; jobs of a few nodes. */
export const WORKER_MODE = { JOB_RUNNER: 'worker', TRANSACTION_ITEMS: '10', JOB_LEASE_SECONDS: '2' };

export type JobView = { id: string; kind: string; status: string; done: number };

/** The jobs a server lists. */
export const jobsOf = async (of: TestServer): Promise<JobView[]> =>
  okData(await of.gql('{ jobs { nodes { id kind status done } } }')).jobs.nodes;

/**
 * The worker carries jobs; what a job does under each strategy is the job suites' business
 * (moveJob, deleteJob, jobs, crash: every strategy). The worker's suites: one strategy whose
 * moves, reorders and deletes all run as jobs, when under test, to keep the suites' time.
 */
const KEEPING_LINEAGE = STRATEGIES_UNDER_TEST.filter((s) => traitsOf(s).keepsLineage);
export const WORKER_STRATEGIES = KEEPING_LINEAGE.length > 0 ? KEEPING_LINEAGE : STRATEGIES_UNDER_TEST;

/** Cleanups (servers, workers, processes) run in reverse after each test of the describe that asks for them. */
export function cleanupsAfterEach(): Array<() => unknown> {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups.length = 0;
  });
  return cleanups;
}

/**
 * A DynamoDB Local of the file's own, started before its tests: the emulator's writes slow down
 * with tables that keep a stream (the jobs suite ran 4 times slower with a stream on every
 * table), and other files share the run's. The returned function gives it once started. It runs
 * with Java's quick-start options, as `npm start`'s does: it serves too little for the optimizing
 * compiler to pay for itself (`streamWorker.test.ts` alone: 59 s of CPU before, 42 after).
 */
export function streamsLocal(): () => DynamoLocal {
  let local: DynamoLocal | undefined;
  beforeAll(async () => {
    local = await startDynamoLocal({ port: await freePort(), javaOptions: QUICK_START_JAVA_OPTIONS });
  }, 60_000);
  afterAll(() => local?.stop());
  return () => local!;
}

/** A server in worker mode on `table` of `local`, closed by `cleanups`. */
export async function workerServer(
  local: DynamoLocal,
  strategy: (typeof STRATEGIES_UNDER_TEST)[number],
  table: string,
  cleanups: Array<() => unknown>,
): Promise<TestServer> {
  const started = await startTestServer({
    strategy,
    table,
    env: { ...WORKER_MODE, DYNAMODB_ENDPOINT: local.endpoint },
  });
  cleanups.push(() => started.close());
  return started;
}
