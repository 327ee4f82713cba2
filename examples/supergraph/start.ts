/**
 * `npm run example:supergraph`: Canopy in a supergraph, on this machine. Starts a DynamoDB Local
 * of its own (port 8200, files in .data/supergraph: never those of `npm start`), Canopy as a
 * federation subgraph under SCHEMA_PREFIX=Tree with a small catalogue (catalogueTree.ts), the
 * three neighbours of neighbours.ts, and an Apollo Gateway over the four; then prints the
 * gateway's URL and queries to try. Ctrl-C stops everything. TREE_STRATEGY picks the strategy.
 */
import 'reflect-metadata';
import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { loadConfig } from '../../src/config.js';
import { startDynamoLocal } from '../../src/dynamodb/dynamoLocal.js';
import { startServer } from '../../src/server/startServer.js';
import { seedCatalogueTree } from './catalogueTree.js';
import { neighbours } from './neighbours.js';
import { QUERIES } from './queries.js';

const HOST = '127.0.0.1';
const PORTS = { gateway: 4200, canopy: 4201, builds: 4202, catalogue: 4203, accounts: 4204, dynamodb: 8200 };
const DATA_DIR = '.data/supergraph';

/** What to stop, last started first. */
const running: Array<() => Promise<void>> = [];

async function stopAll(): Promise<void> {
  for (const stop of running.reverse()) await stop().catch(() => {});
}

interface Canopy {
  url: string;
  strategy: string;
  table: string;
}

/** DynamoDB Local, then Canopy on it with the catalogue seeded (the configuration checked first). */
async function startCanopy(): Promise<Canopy> {
  const strategy = process.env.TREE_STRATEGY || 'adjacency';
  const config = loadConfig({
    PORT: String(PORTS.canopy),
    // A table per strategy: switching the strategy of a table is a reindex (docs/strategies.md).
    DYNAMODB_TABLE: `supergraph-${strategy}`,
    TREE_STRATEGY: strategy,
    DYNAMODB_ENDPOINT: `http://${HOST}:${PORTS.dynamodb}`,
    FEDERATION: 'true',
    SCHEMA_PREFIX: 'Tree',
    SEED_DEMO: 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  });
  const local = await startDynamoLocal({ port: PORTS.dynamodb, host: HOST, dataDir: DATA_DIR });
  running.push(() => local.stop());
  const canopy = await startServer(config);
  running.push(() => canopy.close());
  const url = `${canopy.url}/graphql`;
  await seedCatalogueTree(url);
  return { url, strategy: config.strategy, table: config.table };
}

/** The neighbours, each on its port; answers the gateway's list of subgraphs, Canopy first. */
async function startNeighbours(canopyUrl: string): Promise<Array<{ name: string; url: string }>> {
  const subgraphs = [{ name: 'canopy', url: canopyUrl }];
  for (const { name, schema } of neighbours()) {
    // Inline tracing is for Apollo's hosted studio, which this example does not report to.
    const server = new ApolloServer({ schema, plugins: [ApolloServerPluginInlineTraceDisabled()] });
    const { url } = await startStandaloneServer(server, { listen: { host: HOST, port: PORTS[name] } });
    running.push(() => server.stop());
    subgraphs.push({ name, url });
  }
  return subgraphs;
}

async function startGateway(subgraphs: Array<{ name: string; url: string }>): Promise<string> {
  const gateway = new ApolloServer({
    gateway: new ApolloGateway({ supergraphSdl: new IntrospectAndCompose({ subgraphs }) }),
  });
  const { url } = await startStandaloneServer(gateway, { listen: { host: HOST, port: PORTS.gateway } });
  running.push(() => gateway.stop());
  return url;
}

/** The text as one shell word: single-quoted, each quote inside written '\\''. */
const shellQuoted = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

function printWelcome(gatewayUrl: string, canopy: Canopy): void {
  const lines = [
    `Supergraph gateway ready at ${gatewayUrl}`,
    `Canopy at ${canopy.url} (strategy ${canopy.strategy}, SCHEMA_PREFIX=Tree, FEDERATION=true), ` +
      `table ${canopy.table} on DynamoDB Local at ${HOST}:${PORTS.dynamodb}, files in ${DATA_DIR}`,
    '',
    'Queries to try with curl (or in Apollo Sandbox: open the URL in a browser, online):',
    ...Object.entries(QUERIES).flatMap(([name, { title, query }]) => [
      '',
      `# (${name}) ${title}`,
      `curl -s ${gatewayUrl} -H 'content-type: application/json' -d ${shellQuoted(JSON.stringify({ query }))}`,
    ]),
    '',
    'Ctrl-C stops it.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  const canopy = await startCanopy();
  const subgraphs = await startNeighbours(canopy.url);
  printWelcome(await startGateway(subgraphs), canopy);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void stopAll().then(() => process.exit(0)));
}

main().catch(async (error: unknown) => {
  console.error(`the supergraph example failed to start: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll();
  process.exit(1);
});
