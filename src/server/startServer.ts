import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuthenticator } from '../auth/authenticate.js';
import { checkBuiltStrategy } from '../checkBuiltStrategy.js';
import type { Config } from '../config.js';
import type { Dynamo, DynamoOptions } from '../dynamodb/client.js';
import { ensureTable } from '../dynamodb/table.js';
import type { ChangeHub } from '../live/changeHub.js';
import type { Waker } from '../live/waker.js';
import { seedDemoTree } from '../seed/demoTree.js';
import { storeFor } from '../storeFor.js';
import type { TreeAdmin } from '../storage/treeStore.js';
import { createApp } from './createApp.js';
import { createLiveHub, openWaker, wakeOnChanges } from './liveHub.js';
import type { LiveTransports } from './liveTransports.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics } from './metrics.js';
import { observedDynamo } from './observedDynamo.js';
import { loadTrustedDocuments } from './trustedDocuments.js';

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
  const dynamo = observedDynamo({ config, middleware: options.middleware, logger, metrics });
  // JOB_RUNNER=worker: the worker reads the table's stream.
  await ensureTable(dynamo.client, config.table, { stream: config.jobRunner === 'worker' });
  const tableReady = Math.round(performance.now());
  const waker = await openWaker({ config, logger, drop: options.dropWakeUp });
  const store = storeFor(config, dynamo, logJobEvents(logger), wakeOnChanges(waker));
  admin = store;
  const hub = createLiveHub(store, waker);
  await refuseOtherStrategy(config, admin, logger, () => dynamo.client.destroy());
  const seeded = config.seedDemo ? await seedDemoTree(admin.store, config.nodeTypes) : 0;
  const seededAt = Math.round(performance.now());
  // JOB_RUNNER=worker: the stream worker runs the jobs, and sweeps for them.
  const jobs = config.jobRunner === 'process' ? admin.startJobs() : { stop: async () => {} };

  const httpServer = createServer();
  const authenticate = createAuthenticator(config.auth, dynamo.doc, config.table);
  const app = await createApp({ config, admin, authenticate, trusted, hub, httpServer, logger, metrics });
  const port = await listenOn(httpServer, app.listener, config);
  return {
    logger,
    url: `http://${urlHost(config.host)}:${port}`,
    port,
    seeded,
    timings: { tableReady, seeded: seededAt, listening: Math.round(performance.now()) },
    close: stopper({ ...app, hub, jobs, waker, dynamo }),
  };
}

/** Logs each job's start, end or stop (a stop as a warning). */
function logJobEvents(logger: Logger): Parameters<typeof storeFor>[2] {
  return ({ event, job, error }) =>
    logger[event === 'stopped' ? 'warn' : 'info'](
      { job: job.id, kind: job.kind, nodeId: job.nodeId, ...(error ? { error } : {}) },
      `job ${event}`,
    );
}

/** What a running server holds, in the order it lets go of it. */
interface Held {
  live: LiveTransports;
  /** Apollo Server, whose stop drains the HTTP server. */
  apollo: { stop(): Promise<void> };
  hub: ChangeHub;
  jobs: { stop(): Promise<void> };
  waker: Waker;
  dynamo: Dynamo;
}

/** The server's stop: subscribers first (told to reconnect elsewhere), then the HTTP server's drain. */
function stopper(held: Held): () => Promise<void> {
  return async () => {
    held.live.stopping();
    await held.apollo.stop();
    await held.live.close();
    held.hub.close();
    await held.jobs.stop();
    await held.waker.close();
    held.dynamo.client.destroy();
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
