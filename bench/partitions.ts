/**
 * The write ceiling of one tree on AWS, by DynamoDB's rule of 1,000 write units a second per
 * partition: Canopy runs in this process on an embedded DynamoDB Local, with the throughput of
 * each partition emulated (test/support/partitionThroughput.ts), and clients change one tree as
 * fast as DynamoDB Local lets them.
 *
 *   npm run bench:partitions                                  # every strategy, 5 s per workload
 *   npm run bench:partitions -- --strategies path --seconds 3 --clients 16
 *
 * Workloads, in one tree: renames of 200 leaves (one parent), creates under 100 parents. Per
 * workload: changes a second here, the write units a change puts on the hottest partitions (which
 * partition, by key prefix), the ceiling that sets on AWS (1,000 units a second over the units a
 * change puts on the hottest), and the writes throttled with the real limit applied. DynamoDB
 * Local runs one transaction at a time, so a tree here changes far below its AWS ceiling: the
 * ceiling is the model's, from the units each change puts on each partition, measured.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { startDynamoLocal } from '../src/dynamodb/dynamoLocal.js';
import { startServer } from '../src/server/startServer.js';
import { STRATEGY_NAMES, type StrategyName } from '../src/storage/strategies/strategies.js';
import { PartitionThroughput, throughputMiddleware } from '../test/support/partitionThroughput.js';
import { post, send } from './servers.js';

const { values: options } = parseArgs({
  options: {
    strategies: { type: 'string', default: STRATEGY_NAMES.join(',') },
    seconds: { type: 'string', default: '5' },
    clients: { type: 'string', default: '16' },
  },
});
const STRATEGIES = options.strategies.split(',') as StrategyName[];
const SECONDS = Number(options.seconds);
const CLIENTS = Number(options.clients);
const PARTITION_UNITS = 1000;

interface Workload {
  name: string;
  /** The mutation client `client` sends for its `n`th change. */
  change: (client: number, n: number) => { query: string; variables: Record<string, unknown> };
}

const WORKLOADS: Workload[] = [
  {
    name: 'renames of 200 leaves',
    change: (client, n) => ({
      query: 'mutation ($id: ID!, $name: String!) { updateNode(id: $id, name: $name) { id } }',
      variables: { id: `leaf-${(client * 13 + n) % 200}`, name: `name ${client} ${n}` },
    }),
  },
  {
    name: 'creates under 100 parents',
    change: (client, n) => ({
      query: 'mutation ($input: CreateNodeInput!) { createNode(input: $input) { id } }',
      variables: { input: { id: `new-${client}-${n}`, name: 'new', parentId: `parent-${(client * 7 + n) % 100}` } },
    }),
  },
];

/** One workload on a fresh table: measured with no limit, then run again with the real one. */
async function measure(endpoint: string, strategy: StrategyName, workload: Workload): Promise<string> {
  const throughput = new PartitionThroughput(Infinity);
  const config = loadConfig({
    PORT: '0',
    DYNAMODB_ENDPOINT: endpoint,
    DYNAMODB_TABLE: `partitions_${strategy.replace('-', '_')}_${Date.now()}`,
    TREE_STRATEGY: strategy,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
  });
  const server = await startServer(config, { middleware: throughputMiddleware(throughput) });
  const url = `${server.url}/graphql`;
  try {
    await buildTree(url);
    throughput.totals.clear();
    const changes = await run(url, workload);
    const hottest = [...throughput.totals].sort((a, b) => b[1] - a[1]).slice(0, 3);
    const perChange = (units: number) => Math.round((units / changes) * 100) / 100;
    const top = hottest.map(([key, units]) => `${prefixOf(key)} ${perChange(units)}`).join(', ');
    const ceiling = Math.floor(PARTITION_UNITS / perChange(hottest[0]?.[1] ?? 1));
    throughput.unitsPerSecond = PARTITION_UNITS;
    const throttledBefore = throughput.throttled;
    await run(url, workload, 1000);
    const cells = [strategy, workload.name, Math.round(changes / SECONDS), top, ceiling];
    return `| ${[...cells, throughput.throttled - throttledBefore].join(' | ')} |`;
  } finally {
    await server.close();
  }
}

/** A root with 200 leaves, and 100 parents: one createNodes each. */
async function buildTree(url: string): Promise<void> {
  const create = 'mutation ($input: CreateNodesInput!) { createNodes(input: $input) { nodes { id } } }';
  await post(url, 'mutation { createNode(input: { id: "root", name: "root" }) { id } }');
  for (const prefix of ['leaf', 'parent']) {
    const count = prefix === 'leaf' ? 200 : 100;
    for (let from = 0; from < count; from += 50) {
      const nodes = Array.from({ length: 50 }, (_, i) => ({
        id: `${prefix}-${from + i}`,
        name: `${prefix} ${from + i}`,
      }));
      await post(url, create, { input: { parentId: 'root', nodes } });
    }
  }
}

/** The clients change the tree for SECONDS (each from its `offset`th change on): the changes done. */
async function run(url: string, workload: Workload, offset = 0): Promise<number> {
  const until = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = offset; performance.now() < until; n++) {
        const { query, variables } = workload.change(client, n);
        const answer = await send(url, query, variables);
        if (!answer.errors) done++;
      }
    }),
  );
  return done;
}

/** A partition's key without its ids: `C#` the change log, `N#` a node's items... */
function prefixOf(key: string): string {
  const pk = key.split('|')[1] ?? key;
  return pk.startsWith('C#') ? 'log' : pk.startsWith('N#') ? 'node' : pk.split('#')[0]!;
}

await main();

async function main(): Promise<void> {
  const local = await startDynamoLocal({ port: 8900 + Math.floor(Math.random() * 90) });
  try {
    console.log(
      `one tree, ${CLIENTS} clients, ${SECONDS} s a workload; AWS: ${PARTITION_UNITS} write units/s a partition\n`,
    );
    const header = ['strategy', 'workload', 'changes/s here', 'units a change, hottest partitions'];
    console.log(`| ${[...header, 'AWS ceiling, changes/s', 'throttled at the real limit'].join(' | ')} |`);
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const strategy of STRATEGIES) {
      for (const workload of WORKLOADS) console.log(await measure(local.endpoint, strategy, workload));
    }
  } finally {
    await local.stop();
  }
}
