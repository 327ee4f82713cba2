import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuthenticator } from '../auth/authenticate.js';
import { checkBuiltStrategy } from '../checkBuiltStrategy.js';
import type { Config } from '../config.js';
import { createDynamo, type DynamoOptions } from '../dynamodb/client.js';
import { toServiceError } from '../dynamodb/serviceErrors.js';
import { ensureTable } from '../dynamodb/table.js';
import { isTreeError } from '../errors.js';
import { seedDemoTree } from '../seed/demoTree.js';
import { storeFor } from '../storeFor.js';
import type { TreeAdmin } from '../storage/treeStore.js';
import { createApp } from './createApp.js';
import { createLogger, type Logger } from './logger.js';
import { childCache, createMetrics } from './metrics.js';
import { traceDynamoCall } from './tracing.js';
import { loadTrustedDocuments } from './trustedDocuments.js';
import { USER_AGENT } from '../version.js';
import { ChangeHub } from '../live/changeHub.js';
import { localWaker, redisWaker } from '../live/waker.js';

/** How often a tree with live subscribers here is read without a wake-up (a lost one costs at most this). */
const LIVE_POLL_MS = 1000;
/** How long a tree's reader waits for a change number not written yet before giving it up. */
const LIVE_PATIENCE_MS = 2000;

export interface RunningServer {
  logger: Logger;
  url: string;
  port: number;
  /** Nodes of the demo tree this start seeded (0: not asked, or the table had a tree already). */
  seeded: number;
  /** When the table was ready, the checks and the seed done, the port listening: ms since the process started. */
  timings: { tableReady: number; seeded: number; listening: number };
  /** Stops accepting requests, finishes the ones in flight, and releases the client. */
  close(): Promise<void>;
}

export interface StartOptions {
  middleware?: DynamoOptions['middleware'];
  /** The server's logger (default: JSON lines on stdout at LOG_LEVEL). */
  logger?: Logger;
  /** Drops the pub/sub wake-up it answers true for (tests: a lost one must lose no change). */
  dropWakeUp?: () => boolean;
}

/** Table, store, demo seed, the job sweeper (never waited for), then the HTTP server. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  // Read before anything starts: a bad manifest stops the start with nothing to clean up.
  const trusted = config.trustedDocuments === undefined ? null : loadTrustedDocuments(config.trustedDocuments);
  const logger = options.logger ?? createLogger(config.logLevel);
  let admin: TreeAdmin | undefined;
  const metrics = createMetrics(async () => (admin ? admin.openJobCount() : 0));
  const dynamodbCalls = childCache((command: string, outcome: string) =>
    metrics.dynamodbCalls.labels(command, outcome),
  );
  const dynamo = createDynamo({
    endpoint: config.dynamodbEndpoint,
    region: config.region,
    middleware: options.middleware,
    userAgent: USER_AGENT,
    timeouts: config.dynamodbTimeouts,
    onCall: (call) => {
      const { command, outcome, ms, error } = call;
      dynamodbCalls(command, outcome).inc();
      traceDynamoCall(config.table, call);
      // Refusals of conditions are how writes work; what makes DynamoDB unavailable is news.
      if (error !== undefined && isTreeError(toServiceError(error), 'SERVICE_UNAVAILABLE')) {
        logger.warn({ command, error: outcome, ms: Math.round(ms) }, 'DynamoDB call failed');
      }
    },
  });
  // JOB_RUNNER=worker: the worker reads the table's stream.
  await ensureTable(dynamo.client, config.table, { stream: config.jobRunner === 'worker' });
  const tableReady = Math.round(performance.now());
  // Live updates: the changes committed here wake this process's subscribers, and, with
  // PUBSUB_URL, every other process's through Redis or Valkey.
  const waker = config.pubsubUrl
    ? await redisWaker({
        url: config.pubsubUrl,
        channel: `canopy:changes:${config.table}`,
        ...(options.dropWakeUp ? { drop: options.dropWakeUp } : {}),
        onError: (error) => logger.warn({ error: error.message }, 'pub/sub connection failed; subscribers poll'),
      })
    : localWaker();
  const store = storeFor(
    config,
    dynamo,
    ({ event, job, error }) =>
      logger[event === 'stopped' ? 'warn' : 'info'](
        { job: job.id, kind: job.kind, nodeId: job.nodeId, ...(error ? { error } : {}) },
        `job ${event}`,
      ),
    (tenant, changes) => {
      for (const rootId of new Set(changes.map((change) => change.rootId))) waker.notify(tenant, rootId);
    },
  );
  admin = store;
  const hub = new ChangeHub({
    storeOf: (tenant) => store.forTenant(tenant).store,
    waker,
    pollMs: LIVE_POLL_MS,
    patienceMs: LIVE_PATIENCE_MS,
  });
  await refuseOtherStrategy(config, admin, logger, () => dynamo.client.destroy());
  const seeded = config.seedDemo ? await seedDemoTree(admin.store) : 0;
  const seededAt = Math.round(performance.now());
  // JOB_RUNNER=worker: the stream worker runs the jobs, and sweeps for them.
  const jobs = config.jobRunner === 'process' ? admin.startJobs() : { stop: async () => {} };

  const httpServer = createServer();
  const authenticate = createAuthenticator(config.auth, dynamo.doc, config.table);
  const { listener, apollo, live } = await createApp(config, admin, { authenticate, trusted, hub }, httpServer, {
    logger,
    metrics,
  });
  const port = await listenOn(httpServer, listener, config);
  return {
    logger,
    url: `http://${urlHost(config.host)}:${port}`,
    port,
    seeded,
    timings: { tableReady, seeded: seededAt, listening: Math.round(performance.now()) },
    async close() {
      // Subscribers first (told to reconnect elsewhere), then the HTTP server's drain.
      live.stopping();
      await apollo.stop();
      await live.close();
      hub.close();
      await jobs.stop();
      await waker.close();
      dynamo.client.destroy();
    },
  };
}

/**
 * Before anything is served or seeded: the table's trees must be built for TREE_STRATEGY
 * (checkBuiltStrategy.ts; a ConfigError otherwise, after `release`), its warnings logged.
 */
async function refuseOtherStrategy(config: Config, admin: TreeAdmin, logger: Logger, release: () => void) {
  try {
    for (const warning of await checkBuiltStrategy(config, admin)) logger.warn(warning);
  } catch (error) {
    release();
    throw error;
  }
}

/** Serves `listener` on PORT and HOST; answers the port (the system's choice for PORT=0). */
async function listenOn(
  httpServer: Server,
  listener: RequestListener,
  config: Pick<Config, 'port' | 'host'>,
): Promise<number> {
  httpServer.on('request', listener);
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, config.host, resolve);
  });
  return (httpServer.address() as AddressInfo).port;
}

/** How a client on this machine reaches an address the server listens on. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
