import { keyString, type Item, type Key } from '../../dynamodb/keys.js';
import { collectionPk, edgeKey, nodeAttributes, nodeFromItem, PENDING } from '../engine/core/items.js';
import { OPEN_JOBS_KEY } from '../engine/core/openJobs.js';
import { OPEN_ENTRY_SK_PREFIX } from '../../dynamodb/keys.js';
import { strategyNamed, type StrategyName } from '../strategies/strategies.js';
import { placeOfChain, chainsOf } from '../engine/core/chains.js';
import { projectionItems } from '../engine/core/projectionPlans.js';
import { kindOf } from './kindOf.js';
import type { TreeStrategy } from '../strategy.js';

/**
 * Pure: checks a whole table (all its items) against the truth. The truth itself must be a
 * forest (no cycle, no orphan, depth within the limit) with exactly one matching edge copy per
 * node and childCount equal to the edges below it; the strategy's projections must equal what
 * the truth implies (its nodeFields and itemsFor for each node's chain). Nodes of an unfinished
 * delete job are skipped, and so are those of an import job that has not joined them to the tree;
 * a node claimed by a job that is not running is reported (writes there would wait for nothing).
 */
export interface Problem {
  nodeId: string;
  problem: string;
}

/** Equal as JSON values, whatever the order of object keys (DynamoDB keeps none). */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, v]) => [k, canonical(v)]),
        )
      : value;
const sameJson = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

export function verifyItems(items: Array<Item & Key>, strategyName: StrategyName, maxTreeDepth: number): Problem[] {
  const table = indexOf(items, strategyNamed(strategyName), maxTreeDepth);
  const problems: Problem[] = [];
  const report = (nodeId: string, problem: string) => problems.push({ nodeId, problem });
  for (const [id, item] of table.nodes)
    if (!table.deleting(id) && !table.hidden(id)) verifyNode(table, id, item, report);
  const { strategy } = table;
  const kinds = ['edge', strategy.name];
  for (const item of items) {
    if (!kinds.includes(kindOf(item)) || table.expected.has(keyString(item))) continue;
    const id = typeof item.id === 'string' ? item.id : '?';
    if (table.deleting(id) || table.hidden(id) || (table.unfinishedJobs && !table.nodes.has(id))) continue;
    const kind = kindOf(item);
    report(id, `stray ${kind === 'edge' ? kind : strategy.itemName} item ${item.pk} ${item.sk}`);
  }
  return problems;
}

/** The table's items, indexed for the checks, and the keys the truth implies (filled in by verifyNode). */
interface TableIndex {
  strategy: TreeStrategy;
  maxTreeDepth: number;
  nodes: Map<string, Item>;
  byKey: Map<string, Item & Key>;
  edgesUnder: Map<string, number>;
  facts: ReturnType<typeof chainsOf>;
  /** Whether a job is unfinished: only unfinished work leaves strays. */
  unfinishedJobs: boolean;
  /** The unfinished jobs' ids: only they may claim nodes. */
  running: Set<string>;
  /** A node being deleted: marked, or below the root of a running delete job (which marks only it). */
  deleting: (id: string) => boolean;
  /** A node marked as being deleted. */
  marked: (id: string) => boolean;
  /** A node of an import that has not joined it to the tree: not in it yet. */
  hidden: (id: string) => boolean;
  expected: Set<string>;
}

function indexOf(items: Array<Item & Key>, strategy: TreeStrategy, maxTreeDepth: number): TableIndex {
  const nodes = new Map<string, Item>();
  const byKey = new Map<string, Item & Key>();
  const edgesUnder = new Map<string, number>();
  // Only unfinished work leaves strays: not the summary of the open jobs nor their entries, nor
  // finished jobs' records.
  const jobs = items.filter(
    (item) =>
      kindOf(item) === 'job' &&
      item.sk !== OPEN_JOBS_KEY.sk &&
      !String(item.sk).startsWith(OPEN_ENTRY_SK_PREFIX) &&
      item.status !== 'DONE' &&
      item.status !== 'FAILED',
  );
  // The nodes of an import that has not joined them to the tree are not in it yet, nor are the
  // edges of its top nodes, in their parent's collection.
  const importing = new Set(
    jobs.filter((job) => job.kind === 'IMPORT' && job.joined !== true).map((job) => String(job.id)),
  );
  for (const item of items) {
    byKey.set(keyString(item), item);
    if (kindOf(item) === 'node') nodes.set(String(item.id), item);
    if (kindOf(item) === 'edge' && !importing.has(String(item[PENDING])))
      edgesUnder.set(item.pk, (edgesUnder.get(item.pk) ?? 0) + 1);
  }
  const facts = chainsOf(nodes, maxTreeDepth);
  const running = new Set(jobs.map((job) => String(job.id)));
  const marked = (id: string) => typeof nodes.get(id)?.deleting === 'string';
  const deletedBy = (id: string) => running.has(String(nodes.get(id)?.deleting));
  return {
    strategy,
    maxTreeDepth,
    nodes,
    byKey,
    edgesUnder,
    facts,
    unfinishedJobs: jobs.length > 0,
    running,
    deleting: (id) => marked(id) || (facts.get(id)?.chain ?? []).some(deletedBy),
    marked,
    hidden: (id) => importing.has(String(nodes.get(id)?.[PENDING])),
    expected: new Set<string>(),
  };
}

/** Checks one node of the tree: its chain, its edge copy, its childCount, its place fields and projection items. */
function verifyNode(
  table: TableIndex,
  id: string,
  item: Item,
  report: (nodeId: string, problem: string) => void,
): void {
  const { strategy, maxTreeDepth, expected, byKey } = table;
  const fact = table.facts.get(id)!;
  if (fact.problem) return void report(id, fact.problem);
  const chain = fact.chain!;
  const place = placeOfChain(table.nodes, chain, item);
  if (chain.some(table.marked)) report(id, 'lives under a node that is being deleted');
  if (chain.length > maxTreeDepth) report(id, `depth ${chain.length} is over ${maxTreeDepth}`);
  if (typeof item.claim === 'string' && !table.running.has(item.claim))
    report(id, `claimed by job ${item.claim}, which is not running`);
  const node = nodeFromItem(item);
  const edge = byKey.get(keyString(edgeKey(node)));
  expected.add(keyString(edgeKey(node)));
  if (!edge) report(id, 'has no edge item in its parent collection');
  else if (!sameJson(nodeAttributes(nodeFromItem(edge)), nodeAttributes(node)))
    report(id, 'edge copy differs from the node');
  const children = table.edgesUnder.get(collectionPk(id)) ?? 0;
  if (children !== node.childCount) report(id, `childCount ${node.childCount}, but ${children} children`);
  for (const [field, value] of Object.entries(strategy.nodeFields(place))) {
    if (!sameJson(item[field], value))
      report(id, `stored ${field} ${JSON.stringify(item[field] ?? null)}, expected ${JSON.stringify(value)}`);
  }
  for (const projected of projectionItems(strategy, node, place)) {
    expected.add(keyString(projected));
    const found = byKey.get(keyString(projected));
    if (!found) report(id, `missing projection item ${projected.pk} ${projected.sk}`);
    else if (!sameJson({ ...found }, { ...projected }))
      report(id, `projection item ${projected.pk} ${projected.sk} differs`);
  }
}
