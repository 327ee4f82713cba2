import type { Command } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { createStreamsClient, type Dynamo } from '../dynamodb/client.js';
import { ensureTable } from '../dynamodb/table.js';
import { processLogger } from '../server/logger.js';
import { checkedAdmin } from './checkedAdmin.js';
import { VERSION } from '../version.js';
import { startStreamWorker } from '../worker/streamWorker.js';
import { COMMON } from './help.js';
import { withTable } from './withTable.js';

/** `worker`: the stream worker of JOB_RUNNER=worker, until SIGTERM or SIGINT. */
export function workerCommand(tree: Command): void {
  tree
    .command('worker')
    .summary("run the jobs (moves, deletes, reindexes) as the table's stream announces them")
    .usage('npm run tree -- worker')
    .description(
      [
        'Runs until stopped (SIGTERM or Ctrl-C: it stops reading, lets the jobs it runs finish, then exits):',
        "reads the table's stream (DynamoDB Streams; schema/table.json enables it) and takes up every",
        'job a server records (moves, deletes and reindexes of every tenant) as soon as it is written,',
        'under the same leases as a server; every half JOB_LEASE_SECONDS it also sweeps for jobs whose',
        'runner stopped. Run servers with JOB_RUNNER=worker so that they leave their jobs to it; run as',
        'many workers as you like (a lease lets one run each job). Logs JSON lines on stdout like the',
        'server. On AWS Lambda, dist/src/worker/lambda.handler does the same (docs/strategies.md: Jobs).',
        '',
        COMMON,
      ].join('\n'),
    )
    .action(async () => {
      const config = loadConfig();
      process.exitCode = await withTable(config, (dynamo, endpoint) => worker(config, dynamo, endpoint));
    });
}

async function worker(config: Config, dynamo: Dynamo, endpoint: string | undefined): Promise<number> {
  const logger = processLogger(config);
  await ensureTable(dynamo.client, config.table, { stream: true });
  const admin = await checkedAdmin(config, dynamo, ({ event, job, error }) =>
    logger[event === 'stopped' ? 'warn' : 'info'](
      { job: job.id, kind: job.kind, nodeId: job.nodeId, ...(error ? { error } : {}) },
      `job ${event}`,
    ),
  );
  const streams = createStreamsClient(endpoint, config.region);
  const running = await startStreamWorker({
    dynamo,
    streams,
    table: config.table,
    admin,
    onError: (what, error) =>
      logger.warn(
        { error: error instanceof Error ? error.message : String(error) },
        `worker: ${what} failed; it goes on`,
      ),
  });
  logger.info(
    { version: VERSION, table: config.table, strategy: config.strategy },
    `Canopy ${VERSION} worker reading the stream of table ${config.table}`,
  );
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  logger.info({ signal }, `${signal}: the worker stops after its jobs' current chunks`);
  await running.stop();
  streams.destroy();
  return 0;
}
