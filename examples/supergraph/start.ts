/**
 * `npm run example:supergraph`: Canopy in a supergraph, on this machine. Starts a DynamoDB Local
 * of its own (port 8200, files in .data/supergraph: never those of `npm start`), Canopy as a
 * federation subgraph under SCHEMA_PREFIX=Tree with a small catalogue (catalogueTree.ts), the
 * three neighbours of neighbours.ts, and an Apollo Gateway over the four; then prints the
 * gateway's URL and queries to try (welcome.ts). Ctrl-C stops everything. TREE_STRATEGY picks the
 * strategy; GATEWAY_PORT moves every port (ports.ts).
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
import { supergraphPorts, type SupergraphPorts } from './ports.js';
import { welcomeText } from './welcome.js';

const HOST = '127.0.0.1';
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
async function startCanopy(ports: SupergraphPorts): Promise<Canopy> {
  const strategy = process.env.TREE_STRATEGY || 'adjacency';
  const config = loadConfig({
    PORT: String(ports.canopy),
    // A table per strategy: switching the strategy of a table is a reindex (docs/strategies.md).
    DYNAMODB_TABLE: `supergraph-${strategy}`,
    TREE_STRATEGY: strategy,
    DYNAMODB_ENDPOINT: `http://${HOST}:${ports.dynamodb}`,
    FEDERATION: 'true',
    SCHEMA_PREFIX: 'Tree',
    SEED_DEMO: 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  });
  const local = await startDynamoLocal({ port: ports.dynamodb, host: HOST, dataDir: DATA_DIR });
  running.push(() => local.stop());
  const canopy = await startServer(config);
  running.push(() => canopy.close());
  const url = `${canopy.url}/graphql`;
  await seedCatalogueTree(url);
  return { url, strategy: config.strategy, table: config.table };
}

/** The neighbours, each on its port; answers the gateway's list of subgraphs, Canopy first. */
async function startNeighbours(
  canopyUrl: string,
  ports: SupergraphPorts,
): Promise<Array<{ name: string; url: string }>> {
  const subgraphs = [{ name: 'canopy', url: canopyUrl }];
  for (const { name, schema } of neighbours()) {
    // Inline tracing is for Apollo's hosted studio, which this example does not report to.
    const server = new ApolloServer({ schema, plugins: [ApolloServerPluginInlineTraceDisabled()] });
    const { url } = await startStandaloneServer(server, { listen: { host: HOST, port: ports[name] } });
    running.push(() => server.stop());
    subgraphs.push({ name, url });
  }
  return subgraphs;
}

async function startGateway(subgraphs: Array<{ name: string; url: string }>, port: number): Promise<string> {
  const gateway = new ApolloServer({
    gateway: new ApolloGateway({ supergraphSdl: new IntrospectAndCompose({ subgraphs }) }),
  });
  const { url } = await startStandaloneServer(gateway, { listen: { host: HOST, port } });
  running.push(() => gateway.stop());
  return url;
}

async function main(): Promise<void> {
  const ports = supergraphPorts(process.env.GATEWAY_PORT);
  const canopy = await startCanopy(ports);
  const subgraphs = await startNeighbours(canopy.url, ports);
  const gatewayUrl = await startGateway(subgraphs, ports.gateway);
  process.stdout.write(welcomeText({ gatewayUrl, canopy, dynamodb: `${HOST}:${ports.dynamodb}`, dataDir: DATA_DIR }));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void stopAll().then(() => process.exit(0)));
}

main().catch(async (error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`the supergraph example failed to start: ${message}`);
  if (
    (error instanceof Error && (error as NodeJS.ErrnoException).code === 'EADDRINUSE') ||
    /already in use/.test(message)
  ) {
    console.error(
      'GATEWAY_PORT moves every port of the example: the gateway on it, the subgraphs on the four ports after ' +
        'it, DynamoDB Local 4000 above it (GATEWAY_PORT=4300: 4300 to 4304, and 8300)',
    );
  }
  await stopAll();
  process.exit(1);
});
