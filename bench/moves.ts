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
import { createStore } from '../src/storage/store/createStore.js';
import { keyString } from '../src/dynamodb/keys.js';
import { childPlace, keptFields, NOWHERE, placeOfRoot } from '../src/storage/engine/core/projectionPlans.js';
import { STRATEGY_NAMES, strategyNamed, type StrategyName } from '../src/storage/strategies/strategies.js';
import type { Place, TreeStrategy } from '../src/storage/strategy.js';
import type { TreeStore } from '../src/storage/treeStore.js';
import { loadTree } from '../test/support/loadTree.js';
import type { TreeSpec } from '../test/support/tree.js';
import { DAY_MS } from '../src/durations.js';

const SIZES = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
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
    "\nminimum: the truth's 7 (8 with the hold of a deeper move when nothing is kept), a node item per " +
      'moved descendant whose kept place changes, and each projection item whose key the move changes',
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
  const store = createStore({
    doc,
    table,
    strategy,
    maxTreeDepth: 64,
    cursorSecret: 'bench',
    jobLeaseMs: 30_000,
    transactionItems: 100,
    changeRetentionMs: DAY_MS,
    undoRetentionMs: 7 * DAY_MS,
  });
  process.stdout.write(`${strategy}, ${size} nodes: loading...`);
  await load(doc, table, strategy, size);
  const before = await verifyTable(doc, table, strategy, 64);
  if (before.problems.length > 0) throw new Error(`the loaded tree has problems: ${firstProblems(before.problems)}`);

  const cost: DynamoCost = newCost();
  const started = Date.now();
  // The store's scope for the call meters it, its job included.
  await store.store.scoped({ cost }).moveNode({ id: 'moved', newParentId: DESTINATION.at(-1)! });
  const answerMs = Date.now() - started;
  const jobMs = (await waitForJobs(store.store)) ? Date.now() - started : 0;
  const after = await verifyTable(doc, table, strategy, 64);
  if (after.problems.length > 0) throw new Error(`verify after the move: ${firstProblems(after.problems)}`);
  process.stdout.write(` moved in ${answerMs} ms, job done after ${jobMs} ms, verify clean`);

  const to = STRATEGY_NAMES[(STRATEGY_NAMES.indexOf(strategy) + 1) % STRATEGY_NAMES.length]!;
  const reindexCost: DynamoCost = newCost();
  const reindexStarted = Date.now();
  // The job runs in the background of the call, metered with it.
  await store.forTenant(null, reindexCost).reindex(to);
  await waitForJobs(store.store);
  const reindexMs = Date.now() - reindexStarted;
  const reindexed = await verifyTable(doc, table, to, 64);
  if (reindexed.problems.length > 0) throw new Error(`verify after the reindex: ${firstProblems(reindexed.problems)}`);
  process.stdout.write(`; reindexed to ${to} in ${reindexMs} ms, verify clean\n`);
  client.destroy();
  const minimum = minimumWrites(strategyNamed(strategy), size);
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

/**
 * The fewest items the move of the loaded subtree can write under the strategy's layout, from its
 * own pure members (no formula per strategy): the truth's 7 (the node, its old and new edge, both
 * parents' node item and edge copy), the hold of a deeper move when the strategy keeps no place,
 * the node item of each moved descendant whose kept place changes, and each projection item whose
 * key the move changes (deleted at the old place, put at the new). The subtree leaves 1 ancestor
 * (src) and joins 3 (the chain).
 */
function minimumWrites(strategy: TreeStrategy, size: number): number {
  const kept = keptFields(strategy);
  if (!kept.path) return 7 + 1;
  let writes = 7 + (size - 1);
  const keys = (id: string, place: Place) => new Set(strategy.itemsFor(id, place).map((item) => keyString(item)));
  // Node k's parent is (k - 1) / 10: its place below the moved node, from its ancestors there.
  const below: Place[] = [NOWHERE];
  for (let k = 0; k < size; k++) {
    const id = k === 0 ? 'moved' : `n${k}`;
    const parent = k === 0 ? null : Math.floor((k - 1) / FAN_OUT);
    const own: Place =
      parent === null
        ? placeOfRoot('a0')
        : childPlace(below[parent]!, parent === 0 ? 'moved' : `n${parent}`, `a${k}`, '');
    below[k] = own;
    const at = (ancestors: string[]): Place => ({
      path: [...ancestors, ...own.path],
      lineage: [...ancestors.map(() => 'a0'), ...own.lineage],
      keys: [...ancestors, ...own.path].map(() => ''),
    });
    const [before, after] = [keys(id, at(['src'])), keys(id, at(DESTINATION))];
    for (const key of before) if (!after.has(key)) writes++;
    for (const key of after) if (!before.has(key)) writes++;
  }
  return writes;
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
  const chain = DESTINATION.reduceRight<TreeSpec | undefined>(
    (child, id) => ({ id, children: child ? [child] : [] }),
    undefined,
  )!;
  await loadTree(doc, table, strategy, [{ id: 'src', children: [specs[0]!] }, chain]);
}

await main();
