/**
 * Benchmark of moves of big subtrees, on an embedded in-memory DynamoDB Local:
 *
 *   npm run bench:moves                # 1,000 and 10,000 nodes, every strategy
 *   npm run bench:moves -- 2000        # other sizes
 *
 * For each strategy and size: a tree `src` holding a subtree `moved` of that many nodes (fan-out
 * 10, loaded with BatchWriteItem by the tests' loadTree, then checked by `tree verify`), and a chain `dst` 3 deep. The
 * subtree is moved under the chain's last node through the storage interface. Reported: the
 * DynamoDB requests and items written by the move (the answer and its job), the minimum items
 * the strategy's layout needs (its formula), the time until the answer and until the job is
 * done, and items written per second. `tree verify` must then find 0 problems. Then the table is
 * reindexed to the next strategy of the list (a REINDEX job), timed and counted the same way.
 */
import { createDynamo } from '../src/dynamodb/client.js';
import { newCost, type DynamoCost } from '../src/dynamodb/costMeter.js';
import { startDynamoLocal } from '../src/dynamodb/dynamoLocal.js';
import { ensureTable } from '../src/dynamodb/table.js';
import { verifyTable } from '../src/storage/maintenance/verifyTable.js';
import { createStore } from '../src/storage/strategies/createStore.js';
import { STRATEGY_NAMES, type StrategyName } from '../src/storage/strategies/strategies.js';
import type { TreeStore } from '../src/storage/treeStore.js';
import { loadTree } from '../test/support/loadTree.js';
import type { TreeSpec } from '../test/support/tree.js';

const SIZES = process.argv.slice(2).map(Number).filter((n) => n > 0);
const FAN_OUT = 10;
const DESTINATION = ['dst', 'dst.1', 'dst.2'];

interface Row {
  strategy: StrategyName;
  nodes: number;
  requests: number;
  itemsWritten: number;
  minimum: number;
  answerMs: number;
  jobMs: number;
  /** Then a reindex of the table to the next strategy of the list. */
  reindex: { to: StrategyName; requests: number; itemsWritten: number; ms: number };
}

/** The first problems verify found, each with its node. */
const firstProblems = (problems: ReadonlyArray<{ nodeId: string; problem: string }>): string =>
  problems
    .slice(0, 3)
    .map((p) => `${p.nodeId}: ${p.problem}`)
    .join('; ');

async function main() {
  const local = await startDynamoLocal({ port: 8600 + Math.floor(Math.random() * 300) });
  const rows: Row[] = [];
  try {
    for (const nodes of SIZES.length > 0 ? SIZES : [1000, 10000]) {
      for (const strategy of STRATEGY_NAMES) rows.push(await run(local.endpoint, strategy, nodes));
    }
  } finally {
    await local.stop();
  }
  console.log('\n| strategy | nodes | requests | items written | minimum (formula) | answer | job done | items/s |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const perSecond = r.jobMs > 0 ? Math.round(r.itemsWritten / (r.jobMs / 1000)) : '-';
    console.log(
      `| ${r.strategy} | ${r.nodes} | ${r.requests} | ${r.itemsWritten} | ${r.minimum} ` +
        `| ${r.answerMs} ms | ${r.jobMs} ms | ${perSecond} |`,
    );
  }
  console.log(
    '\nminimum: adjacency 8 (7, and the hold of a deeper move); path 7 + 3s - 1; ' +
      'closure 7 + (s - 1) + s(a + b), a = ancestors left, b = joined',
  );
  console.log('\n| reindex | nodes | requests | items written | job done | items/s |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const { to, requests, itemsWritten, ms } = r.reindex;
    const nodes = r.nodes + DESTINATION.length + 1;
    console.log(
      `| ${r.strategy} → ${to} | ${nodes} | ${requests} | ${itemsWritten} | ${ms} ms ` +
        `| ${Math.round(itemsWritten / (ms / 1000))} |`,
    );
  }
}

async function run(endpoint: string, strategy: StrategyName, size: number): Promise<Row> {
  const table = `bench_${strategy}_${size}_${Date.now()}`;
  const { client, doc } = createDynamo({ endpoint, region: 'local' });
  await ensureTable(client, table);
  const store = createStore({ doc, table, strategy, maxTreeDepth: 64, cursorSecret: 'bench', jobLeaseMs: 30_000, transactionItems: 100 });
  process.stdout.write(`${strategy}, ${size} nodes: loading...`);
  await load(doc, table, strategy, size);
  const before = await verifyTable(doc, table, strategy, 64);
  if (before.problems.length > 0) throw new Error(`the loaded tree has problems: ${firstProblems(before.problems)}`);

  const cost: DynamoCost = newCost();
  const started = Date.now();
  // The store's scope for the call meters it, its job included.
  await store.scoped(cost).moveNode({ id: 'moved', newParentId: DESTINATION.at(-1)! });
  const answerMs = Date.now() - started;
  const jobMs = (await waitForJobs(store)) ? Date.now() - started : 0;
  const after = await verifyTable(doc, table, strategy, 64);
  if (after.problems.length > 0) throw new Error(`verify after the move: ${firstProblems(after.problems)}`);
  process.stdout.write(` moved in ${answerMs} ms, job done after ${jobMs} ms, verify clean`);

  const to = STRATEGY_NAMES[(STRATEGY_NAMES.indexOf(strategy) + 1) % STRATEGY_NAMES.length]!;
  const reindexCost: DynamoCost = newCost();
  const reindexStarted = Date.now();
  // The job runs in the background of the call, metered with it.
  await store.scoped(reindexCost).reindex(to);
  await waitForJobs(store);
  const reindexMs = Date.now() - reindexStarted;
  const reindexed = await verifyTable(doc, table, to, 64);
  if (reindexed.problems.length > 0) throw new Error(`verify after the reindex: ${firstProblems(reindexed.problems)}`);
  process.stdout.write(`; reindexed to ${to} in ${reindexMs} ms, verify clean\n`);
  client.destroy();
  // The subtree leaves 1 ancestor (src) and joins 3 (the chain).
  const minimum = strategy === 'adjacency' ? 8 : strategy === 'path' ? 7 + 3 * size - 1 : 7 + (size - 1) + size * (1 + 3);
  return {
    strategy,
    nodes: size,
    requests: cost.requests,
    itemsWritten: cost.itemsWritten,
    minimum,
    answerMs,
    jobMs,
    reindex: { to, requests: reindexCost.requests, itemsWritten: reindexCost.itemsWritten, ms: reindexMs },
  };
}

/** Waits until no job runs; true if there was one. */
async function waitForJobs(store: TreeStore): Promise<boolean> {
  let seen = false;
  for (;;) {
    const { edges } = await store.listJobs({ first: 100 });
    if (edges.length > 0) seen = true;
    if (edges.every((e) => e.node.status !== 'RUNNING')) return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** src ─ moved (size nodes, fan-out 10, breadth first), and the chain dst ─ dst.1 ─ dst.2. */
async function load(doc: ReturnType<typeof createDynamo>['doc'], table: string, strategy: StrategyName, size: number) {
  // Node k's children are 10k+1 .. 10k+10.
  const specs: TreeSpec[] = Array.from({ length: size }, (_, k) => ({ id: k === 0 ? 'moved' : `n${k}`, children: [] }));
  for (let k = 1; k < size; k++) specs[Math.floor((k - 1) / FAN_OUT)]!.children!.push(specs[k]!);
  const chain = DESTINATION.reduceRight<TreeSpec | undefined>((child, id) => ({ id, children: child ? [child] : [] }), undefined)!;
  await loadTree(doc, table, strategy, [{ id: 'src', children: [specs[0]!] }, chain]);
}

await main();
