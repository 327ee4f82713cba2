/**
 * Benchmark of `tree import`, on an embedded in-memory DynamoDB Local:
 *
 *   npm run bench:import               # 100,000 nodes, every strategy
 *   npm run bench:import -- 20000      # another size
 *
 * For each strategy, into an empty table: a tree of that many nodes (fan-out 10, breadth first,
 * so 5 levels below the root for 100,000), written as the JSON records `tree export` writes,
 * parsed and imported as `tree import FILE` does (importRecords.ts, importTree.ts), through a
 * store whose DynamoDB calls are counted. Reported: the time, nodes per second, DynamoDB
 * requests and items written (and per node). `tree verify` must then find 0 problems, and a
 * second import of the same file must create nothing.
 */
import { createDynamo } from '../src/dynamodb/client.js';
import { newCost } from '../src/dynamodb/costMeter.js';
import { startDynamoLocal } from '../src/dynamodb/dynamoLocal.js';
import { ensureTable } from '../src/dynamodb/table.js';
import { parseImport } from '../src/cli/importRecords.js';
import { importTree } from '../src/cli/importTree.js';
import { verifyTable } from '../src/storage/maintenance/verifyTable.js';
import { createStore } from '../src/storage/store/createStore.js';
import { STRATEGY_NAMES } from '../src/storage/strategies/strategies.js';

const SIZE = Number(process.argv.slice(2).find((a) => Number(a) > 0) ?? 100_000);
const FAN_OUT = 10;
const MAX_DEPTH = 64;

/** The file: node k's children are 10k+1 .. 10k+10, one record per line as `tree export` writes. */
function file(size: number): string {
  const lines = Array.from({ length: size }, (_, k) =>
    JSON.stringify({
      id: `n${k}`,
      parentId: k === 0 ? null : `n${Math.floor((k - 1) / FAN_OUT)}`,
      name: `Node ${k}`,
      data: { k },
    }),
  );
  return `[\n${lines.join(',\n')}\n]\n`;
}

async function main() {
  const local = await startDynamoLocal({ port: 8300 + Math.floor(Math.random() * 300) });
  const text = file(SIZE);
  const rows: string[] = [];
  try {
    for (const strategy of STRATEGY_NAMES) {
      const { client, doc } = createDynamo({ endpoint: local.endpoint, region: 'local' });
      const table = `import_${strategy}_${Date.now()}`;
      await ensureTable(client, table);
      const store = createStore({
        doc,
        table,
        strategy,
        maxTreeDepth: MAX_DEPTH,
        cursorSecret: 'bench',
        jobLeaseMs: 30_000,
        transactionItems: 100,
      });
      process.stdout.write(`${strategy}: importing ${SIZE} nodes...`);
      const cost = newCost();
      const started = performance.now();
      const records = parseImport(text, 'json');
      let done = 0;
      const result = await importTree(store.store.scoped(cost), records, {
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
      const rerun = await importTree(store.store.scoped(again), parseImport(text, 'json'), { maxTreeDepth: MAX_DEPTH });
      if (rerun.created !== 0 || rerun.skipped !== SIZE)
        throw new Error(`${strategy}: the second import created ${rerun.created}`);
      process.stdout.write(
        ` done in ${seconds.toFixed(1)} s, verify clean, run again: nothing created (${again.requests} requests)\n`,
      );
      rows.push(
        `| ${strategy} | ${SIZE.toLocaleString('en')} | ${seconds.toFixed(1)} s | ${Math.round(SIZE / seconds)} ` +
          `| ${cost.requests} (${(cost.requests / SIZE).toFixed(2)}/node) ` +
          `| ${cost.itemsWritten} (${(cost.itemsWritten / SIZE).toFixed(2)}/node) | ${again.requests} |`,
      );
      client.destroy();
    }
  } finally {
    await local.stop();
  }
  console.log(
    `\nImport of ${SIZE.toLocaleString('en')} nodes (fan-out ${FAN_OUT}) into an empty table, ` +
      'DynamoDB Local in memory, no added delay',
  );
  console.log('\n| strategy | nodes | time | nodes/s | DynamoDB requests | items written | run again: requests |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
}

await main();
