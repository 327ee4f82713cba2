import 'reflect-metadata';
import { ConfigError, loadConfig, productionProblems, type Config } from './config.js';
import { startDynamoLocal, type DynamoLocal } from './dynamodb/dynamoLocal.js';
import { createLogger } from './server/logger.js';
import { startTracing } from './server/tracing.js';
import { startServer, type RunningServer } from './server/startServer.js';
import { VERSION } from './version.js';

/**
 * `npm start`: the embedded DynamoDB Local (unless DYNAMODB_ENDPOINT is set), then the server.
 * SIGINT/SIGTERM stop accepting requests, finish the ones in flight and stop DynamoDB Local,
 * also when they arrive while starting.
 */
const config = configOrExit();
const logger = createLogger(config.logLevel);
const stopTracing = startTracing(config);
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
  let endpoint = config.dynamodbEndpoint;
  if (endpoint === undefined) {
    local = await startDynamoLocal({
      port: config.dynamodbLocalPort,
      host: config.host,
      dataDir: config.dataDir,
      // Without its database the server can only fail: say why, and stop (a supervisor restarts it).
      onUnexpectedExit: (code, output) => {
        logger.error({ code, output }, `DynamoDB Local exited unexpectedly (code ${code}); stopping`);
        void shutdown('DynamoDB Local exit', 1);
      },
    });
    endpoint = local.endpoint;
    if (local.warning) logger.warn(local.warning);
  }
  if (stopping) return;
  server = await startServer({ ...config, dynamodbEndpoint: endpoint }, { logger });
  if (stopping) {
    await server.close();
    return;
  }
  const data = local
    ? `the embedded DynamoDB Local at ${new URL(local.endpoint).host}, files in ${config.dataDir}`
    : endpoint;
  logger.info(
    { version: VERSION, url: `${server.url}/graphql`, strategy: config.strategy, seeded: server.seeded },
    startLine(config, server, data),
  );
}

main().catch(async (error) => {
  logger.fatal({ error: error instanceof Error ? error.message : String(error) }, 'failed to start');
  await local?.stop();
  process.exit(1);
});

/** The configuration, or every problem with it on stderr (no stack) and exit code 2. */
function configOrExit(): Config {
  try {
    const config = loadConfig();
    const problems = productionProblems(config);
    if (problems.length > 0) throw new ConfigError(problems);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
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
