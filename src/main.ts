import 'reflect-metadata';
import { ConfigError, configWarnings, loadConfig, type Config } from './config.js';
import { quickStartCacheDir, startDynamoLocal, type DynamoLocal } from './dynamodb/dynamoLocal.js';
import { checkBeforeStart } from './server/checkBeforeStart.js';
import { failedStart } from './server/failedStart.js';
import { processLogger } from './server/logger.js';
import type { RunningServer, startServer } from './server/startServer.js';
import { VERSION } from './version.js';

/**
 * `npm start`: the embedded DynamoDB Local (unless DYNAMODB_ENDPOINT is set, or in production:
 * DynamoDB in AWS_REGION), then the server.
 * SIGINT/SIGTERM stop accepting requests, finish the ones in flight and stop DynamoDB Local,
 * also when they arrive while starting.
 */
const config = await configOrExit();
const logger = processLogger(config);
for (const warning of configWarnings()) logger.warn(warning);
let stopTracing = async (): Promise<void> => {};
/** When the server's modules were loaded, in ms since the process started (startupMs). */
let serverModulesLoaded = NaN;
let local: DynamoLocal | undefined;
let server: RunningServer | undefined;
let stopping = false;

async function shutdown(signal: string, code = 0): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, `${signal}: shutting down`);
  try {
    await server?.close();
    await stopTracing();
  } finally {
    await local?.stop();
    process.exit(code);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

async function main(): Promise<void> {
  // Java takes the longest: it starts first, and the server's modules load while it does.
  const [endpoint, start] = await Promise.all([
    config.embeddedDynamo ? startLocal() : config.dynamodbEndpoint,
    loadServer(),
  ]);
  if (stopping) return;
  server = await start({ ...config, dynamodbEndpoint: endpoint }, { logger });
  if (stopping) {
    await server.close();
    return;
  }
  const data = local
    ? `the embedded DynamoDB Local at ${new URL(local.endpoint).host}, files in ${config.dataDir}`
    : (endpoint ?? `DynamoDB in ${config.region}`);
  logger.info(
    {
      version: VERSION,
      url: `${server.url}/graphql`,
      strategy: config.strategy,
      seeded: server.seeded,
      startupMs: startupMs(local, server),
    },
    startLine(config, server, data),
  );
}

/** The embedded DynamoDB Local, started quickly (dynamoLocal.ts, quickStart); answers its endpoint. */
async function startLocal(): Promise<string> {
  local = await startDynamoLocal({
    port: config.dynamodbLocalPort,
    host: config.host,
    dataDir: config.dataDir,
    quickStart: { cacheDir: quickStartCacheDir() },
    // Without its database the server can only fail: say why, and stop (a supervisor restarts it).
    onUnexpectedExit: (code, output) => {
      // Ctrl-C signals the terminal's whole process group (and `npm run dev` the whole process
      // tree): DynamoDB Local ending while the server shuts down is expected.
      if (stopping) return;
      logger.error({ code, output }, `DynamoDB Local exited unexpectedly (code ${code}); stopping`);
      void shutdown('DynamoDB Local exit', 1);
    },
  });
  if (local.warning) logger.warn(local.warning);
  return local.endpoint;
}

/**
 * The server's modules (Apollo, type-graphql, the AWS SDK, OpenTelemetry: a second or two of the
 * start), imported while DynamoDB Local's Java starts; tracing starts with them.
 */
async function loadServer(): Promise<typeof startServer> {
  const [server, tracing] = await Promise.all([import('./server/startServer.js'), import('./server/tracing.js')]);
  stopTracing = tracing.startTracing(config);
  serverModulesLoaded = Math.round(performance.now());
  return server.startServer;
}

/** Where the start's time went, in ms since the process started (docs/operations.md, How long a start takes). */
function startupMs(started: DynamoLocal | undefined, running: RunningServer): Record<string, number> {
  return {
    ...(started && {
      dynamodbLocalSpawned: started.timings.spawned,
      javaUp: started.timings.javaUp,
      dynamodbLocalAnswered: started.timings.answered,
    }),
    serverModulesLoaded,
    ...running.timings,
    ready: Math.round(performance.now()),
  };
}

main().catch(async (error) => {
  const code = failedStart(error, logger);
  await local?.stop();
  process.exit(code);
});

/**
 * The configuration, checked before anything starts (checkBeforeStart: production's refusals,
 * the ports); or every problem with it on stderr (no stack), the warnings about the
 * environment's names after them (a typo often explains a problem), and exit code 2.
 */
async function configOrExit(): Promise<Config> {
  try {
    const config = loadConfig();
    await checkBeforeStart(config);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    for (const warning of configWarnings()) console.error(`warning: ${warning}`);
    process.exit(2);
  }
}

/** The one line that says what started: where, on what data, how. */
function startLine(config: Config, running: RunningServer, data: string): string {
  const demo = !config.seedDemo
    ? 'not seeded (SEED_DEMO=false)'
    : running.seeded > 0
      ? `seeded (${running.seeded} nodes)`
      : 'not seeded (the table has a tree)';
  const auth =
    config.auth.mode === 'none'
      ? 'none (anyone who reaches the port may read and change every tree)'
      : config.auth.mode;
  return [
    `Canopy ${VERSION} ready at ${running.url}/graphql`,
    `strategy ${config.strategy}`,
    `federation ${config.federation ? 'on' : 'off'}`,
    `auth ${auth}`,
    `table ${config.table} on ${data}`,
    `demo tree ${demo}`,
  ].join('; ');
}
