/**
 * Benchmark of `tree import`, on an embedded in-memory DynamoDB Local:
 *
 *   npm run bench:import               # 100,000 nodes, every strategy, both shapes
 *   npm run bench:import -- 20000      # another size
 *   npm run bench:import -- --shape random    # one shape: `fan` or `random`
 *
 * For each shape and strategy, into an empty table: a tree of that many nodes, either of fan-out
 * 10 (breadth first, so 5 levels below the root for 100,000) or random (each node 1 to 4
 * children, drawn from a seeded generator, none below depth 12), written as the JSON records `tree export` writes,
 * parsed and imported as `tree import FILE` does (importRecords.ts, importTree.ts), through a
 * store whose DynamoDB calls are counted. Reported: the time, nodes per second, DynamoDB
 * requests and items written (and per node). `tree verify` must then find 0 problems, and a
 * second import of the same file must create nothing. Before the first, an untimed import of
 * WARM_UP nodes warms DynamoDB Local's Java up, so that the first strategy measured is not the
 * one that pays for its compiling; each table is dropped after its cell.
 */
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { createDynamo } from '../src/dynamodb/client.js';
import { newCost } from '../src/dynamodb/costMeter.js';
import { startDynamoLocal } from '../src/dynamodb/dynamoLocal.js';
import { ensureTable } from '../src/dynamodb/table.js';
import { parseImport } from '../src/cli/importRecords.js';
import { importTree } from '../src/cli/importTree.js';
import { verifyTable } from '../src/storage/maintenance/verifyTable.js';
import { createStore } from '../src/storage/store/createStore.js';
import { STRATEGY_NAMES, type StrategyName } from '../src/storage/strategies/strategies.js';
import type { TreeStore } from '../src/storage/treeStore.js';
import { prng } from '../test/support/prng.js';
import { DAY_MS } from '../src/durations.js';

const args = process.argv.slice(2);
const SIZE = Number(args.find((a) => Number(a) > 0) ?? 100_000);
const SHAPES = args.includes('--shape') ? [args[args.indexOf('--shape') + 1] as Shape] : (['fan', 'random'] as const);
const FAN_OUT = 10;
const MAX_DEPTH = 64;
/** The random shape: each node's children, and the deepest depth that has any. */
const RANDOM_CHILDREN = [1, 4] as const;
const RANDOM_DEPTH = 12;
const WARM_UP = 5000;

type Shape = 'fan' | 'random';

/** Each node's parent: node k's children are 10k+1 .. 10k+10 (`fan`), or 1 to 4 drawn at random (`random`). */
function parents(shape: Shape, size: number): Array<number | null> {
  if (shape === 'fan') return Array.from({ length: size }, (_, k) => (k === 0 ? null : Math.floor((k - 1) / FAN_OUT)));
  const random = prng(33);
  const parentOf: Array<number | null> = [null];
  const depth = [0];
  // Breadth first: each node in turn gets its children, until the tree has `size` nodes.
  for (let k = 0; parentOf.length < size; k++) {
    if (k >= parentOf.length) throw new Error('the random tree stopped growing');
    if (depth[k]! >= RANDOM_DEPTH) continue;
    const [least, most] = RANDOM_CHILDREN;
    const children = least + Math.floor(random() * (most - least + 1));
    for (let c = 0; c < children && parentOf.length < size; c++) {
      parentOf.push(k);
      depth.push(depth[k]! + 1);
    }
  }
  return parentOf;
}

/** The file, one record per line as `tree export` writes. */
function file(shape: Shape, size: number): string {
  const lines = parents(shape, size).map((parent, k) =>
    JSON.stringify({ id: `n${k}`, parentId: parent === null ? null : `n${parent}`, name: `Node ${k}`, data: { k } }),
  );
  return `[\n${lines.join(',\n')}\n]\n`;
}

async function main() {
  const local = await startDynamoLocal({ port: 8300 + Math.floor(Math.random() * 300) });
  const rows: string[] = [];
  try {
    await warmUp(local.endpoint);
    for (const [shape, strategy] of SHAPES.flatMap((sh) => STRATEGY_NAMES.map((st) => [sh, st] as const))) {
      const text = file(shape, SIZE);
      const { doc, table, store, drop } = await emptyTable(local.endpoint, strategy, strategy);
      process.stdout.write(`${shape}, ${strategy}: importing ${SIZE} nodes...`);
      const cost = newCost();
      const started = performance.now();
      const records = parseImport(text, 'json');
      let done = 0;
      const result = await importTree(store.store.scoped({ cost }), records, {
        maxTreeDepth: MAX_DEPTH,
        onRecord: () => {
          if (++done % Math.ceil(SIZE / 10) === 0) process.stdout.write(` ${Math.round((100 * done) / SIZE)}%`);
        },
      });
      const seconds = (performance.now() - started) / 1000;
      if (result.created !== SIZE) throw new Error(`${strategy}: ${result.created} nodes created, expected ${SIZE}`);
      const { problems } = await verifyTable(doc, table, strategy, MAX_DEPTH);
      if (problems.length > 0)
        throw new Error(
          `${strategy}: verify found ${problems.length} problems, the first: ${JSON.stringify(problems[0])}`,
        );
      const again = newCost();
      const rerun = await importTree(store.store.scoped({ cost: again }), parseImport(text, 'json'), {
        maxTreeDepth: MAX_DEPTH,
      });
      if (rerun.created !== 0 || rerun.skipped !== SIZE)
        throw new Error(`${strategy}: the second import created ${rerun.created}`);
      process.stdout.write(
        ` done in ${seconds.toFixed(1)} s, verify clean, run again: nothing created (${again.requests} requests)`,
      );
      // Then `tree reindex --to` the next strategy, on the table just imported.
      const target = STRATEGY_NAMES[(STRATEGY_NAMES.indexOf(strategy) + 1) % STRATEGY_NAMES.length]!;
      const reindexStarted = performance.now();
      await store.forTenant(null, newCost()).reindex(target);
      await waitForJobs(store.store);
      const reindexSeconds = (performance.now() - reindexStarted) / 1000;
      const reindexed = await verifyTable(doc, table, target, MAX_DEPTH);
      if (reindexed.problems.length > 0) throw new Error(`${strategy}: verify after the reindex to ${target} failed`);
      process.stdout.write(`; reindexed to ${target} in ${reindexSeconds.toFixed(1)} s, verify clean\n`);
      rows.push(
        `| ${shape} | ${strategy} | ${SIZE.toLocaleString('en')} | ${seconds.toFixed(1)} s ` +
          `| ${Math.round(SIZE / seconds)} ` +
          `| ${cost.requests} (${(cost.requests / SIZE).toFixed(2)}/node) ` +
          `| ${cost.itemsWritten} (${(cost.itemsWritten / SIZE).toFixed(2)}/node) | ${again.requests} ` +
          `| ${target}: ${reindexSeconds.toFixed(1)} s, ${Math.round(SIZE / reindexSeconds)} nodes/s |`,
      );
      // Each cell on an otherwise empty DynamoDB Local: the tables of the cells before would slow it.
      await drop();
    }
  } finally {
    await local.stop();
  }
  console.log(
    `\nImport of ${SIZE.toLocaleString('en')} nodes (fan: fan-out ${FAN_OUT}; ` +
      `random: ${RANDOM_CHILDREN.join(' to ')} children a node, depth up to ${RANDOM_DEPTH}) into an empty table, ` +
      'DynamoDB Local in memory, no added delay',
  );
  console.log(
    '\n| shape | strategy | nodes | time | nodes/s | DynamoDB requests | items written | run again: requests ' +
      '| reindex to the next strategy |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
}

await main();

/** An untimed import of WARM_UP random nodes into a table of its own, then the table dropped. */
async function warmUp(endpoint: string): Promise<void> {
  process.stdout.write(`warming DynamoDB Local up: an untimed import of ${WARM_UP} nodes...`);
  const { store, drop } = await emptyTable(endpoint, STRATEGY_NAMES[0]!, 'warm_up');
  await importTree(store.store, parseImport(file('random', WARM_UP), 'json'), { maxTreeDepth: MAX_DEPTH });
  await drop();
  process.stdout.write(' done\n');
}

/** A new empty table (`import_<name>_<time>`) and a store on it under `strategy`; `drop` deletes the table. */
async function emptyTable(endpoint: string, strategy: StrategyName, name: string) {
  const { client, doc } = createDynamo({ endpoint, region: 'local' });
  const table = `import_${name}_${Date.now()}`;
  await ensureTable(client, table);
  const store = createStore({
    doc,
    table,
    strategy,
    maxTreeDepth: MAX_DEPTH,
    cursorSecret: 'bench',
    jobLeaseMs: 30_000,
    transactionItems: 100,
    changeRetentionMs: DAY_MS,
    undoRetentionMs: 7 * DAY_MS,
  });
  const drop = async () => {
    await client.send(new DeleteTableCommand({ TableName: table }));
    client.destroy();
  };
  return { doc, table, store, drop };
}

/** Until no job of the store runs. */
async function waitForJobs(store: TreeStore): Promise<void> {
  for (;;) {
    const { edges } = await store.listJobs({ first: 100 });
    if (edges.every((e) => e.node.status !== 'RUNNING')) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
