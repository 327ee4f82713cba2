import { decodeItem } from '../../dynamodb/decodeItem.js';
import { keyString, pathKeyKey, type Item, type Key } from '../../dynamodb/keys.js';
import {
  collectionPk,
  edgeKey,
  LIVE,
  PATH_KEY_ITEM,
  nodeAttributes,
  nodeFromItem,
  PENDING,
  storedFromItem,
} from '../engine/core/items.js';
import { JOB_SK_PREFIX, LEGACY_DELETE_SK_PREFIX, OPEN_ENTRY_SK_PREFIX, OPEN_JOBS_SK } from '../../dynamodb/keys.js';
import { strategyNamed, type StrategyName } from '../strategies/strategies.js';
import { placeOfChain, chainsOf } from '../engine/core/chains.js';
import { keyOfIn, projectionItems, type KeyOf } from '../engine/core/projectionPlans.js';
import type { TypedData } from '../../nodeTypes/typedData.js';
import { JOB_ITEM, legacyDeleteOf } from '../engine/jobs/jobRecord.js';
import { kindOf } from './kindOf.js';
import { sameJson } from './sameJson.js';
import { grantProblems } from './verifyGrants.js';
import type { StoredNode, TreeStrategy } from '../strategy.js';
import type { TreeNode } from '../treeStore.js';

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

export function verifyItems(
  items: Array<Item & Key>,
  strategyName: StrategyName,
  maxTreeDepth: number,
  typedData?: TypedData,
): Problem[] {
  const strategy = strategyNamed(strategyName);
  const table = indexOf(items, strategy, maxTreeDepth, keyOfIn({ strategy, typedData }));
  if (typedData) table.pathKeyOf = (node) => (node.parentId === null ? null : typedData.pathKeyOf(node));
  const problems: Problem[] = [];
  const report = (nodeId: string, problem: string) => problems.push({ nodeId, problem });
  for (const [id, item] of table.nodes)
    if (!table.deleting(id) && !table.hidden(id)) verifyNode(table, id, item, report);
  // Path keys are checked under the node types only; a marker (a value a node left) is no claim.
  const kinds = ['edge', strategy.name, ...(typedData ? ['pathKey'] : [])];
  const names: Record<string, string> = { edge: 'edge', pathKey: 'path key', [strategy.name]: strategy.itemName };
  for (const item of items) {
    const kind = kindOf(item);
    if (!kinds.includes(kind) || table.expected.has(keyString(item))) continue;
    if (kind === 'pathKey' && item[LIVE] === undefined) continue;
    const id = typeof item.id === 'string' ? item.id : '?';
    if (table.deleting(id) || table.hidden(id) || (table.unfinishedJobs && !table.nodes.has(id))) continue;
    report(id, `stray ${names[kind]} item ${item.pk} ${item.sk}`);
  }
  problems.push(...grantProblems(items));
  return problems;
}

/** The table's items, indexed for the checks, and the keys the truth implies (filled in by verifyNode). */
interface TableIndex {
  strategy: TreeStrategy;
  /** The path key a place holds of a node (KeyOf). */
  keyOf: KeyOf;
  /** A node's path key value, under the node types (none for a root); absent: path keys are not checked. */
  pathKeyOf?: (node: TreeNode) => string | null;
  maxTreeDepth: number;
  /** The node items by id, as stored and as decoded. */
  nodes: Map<string, Item>;
  stored: Map<string, StoredNode>;
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

function indexOf(items: Array<Item & Key>, strategy: TreeStrategy, maxTreeDepth: number, keyOf: KeyOf): TableIndex {
  const nodes = new Map<string, Item>();
  const stored = new Map<string, StoredNode>();
  const byKey = new Map<string, Item & Key>();
  const edgesUnder = new Map<string, number>();
  const { unfinished, running, importing } = unfinishedWork(items);
  const isImporting = (pending: unknown) => typeof pending === 'string' && importing.has(pending);
  for (const item of items) {
    byKey.set(keyString(item), item);
    if (kindOf(item) === 'node') {
      const node = storedFromItem(item);
      nodes.set(node.node.id, item);
      stored.set(node.node.id, node);
    }
    // Edges are counted as found, strays included (they are reported, not decoded).
    if (kindOf(item) === 'edge' && !isImporting(item[PENDING]))
      edgesUnder.set(item.pk, (edgesUnder.get(item.pk) ?? 0) + 1);
  }
  const facts = chainsOf(nodes, maxTreeDepth);
  const marked = (id: string) => stored.get(id)?.deleting !== undefined;
  const deletedBy = (id: string) => running.has(stored.get(id)?.deleting ?? '');
  return {
    strategy,
    keyOf,
    maxTreeDepth,
    nodes,
    stored,
    byKey,
    edgesUnder,
    facts,
    unfinishedJobs: unfinished,
    running,
    deleting: (id) => marked(id) || (facts.get(id)?.chain ?? []).some(deletedBy),
    marked,
    hidden: (id) => isImporting(stored.get(id)?.pending),
    expected: new Set<string>(),
  };
}

/** What verify reads of a job record. */
const JOB_FACTS = JOB_ITEM.pick({ id: true, kind: true, status: true, joined: true });

/**
 * The unfinished work the items of the jobs' partitions tell of (only it leaves strays): whether
 * there is any, the unfinished jobs' ids (only they may claim nodes), and the imports among them
 * that have not joined their nodes to the tree (neither their nodes nor the edges of their top
 * nodes, in their parent's collection, are in it yet). Not the summary of the open jobs nor
 * their entries, nor finished jobs' records; what earlier versions left (a legacy delete, a
 * reindex checkpoint) counts.
 */
function unfinishedWork(items: Array<Item & Key>): {
  unfinished: boolean;
  running: Set<string>;
  importing: Set<string>;
} {
  const running = new Set<string>();
  const importing = new Set<string>();
  let unfinished = false;
  for (const item of items) {
    if (kindOf(item) !== 'job' || item.sk === OPEN_JOBS_SK || item.sk.startsWith(OPEN_ENTRY_SK_PREFIX)) continue;
    if (item.sk.startsWith(JOB_SK_PREFIX)) {
      const job = decodeItem(JOB_FACTS, item);
      if (job.status === 'DONE' || job.status === 'FAILED') continue;
      running.add(job.id);
      if (job.kind === 'IMPORT' && job.joined !== true) importing.add(job.id);
    } else if (item.sk.startsWith(LEGACY_DELETE_SK_PREFIX)) running.add(legacyDeleteOf(item).jobId);
    unfinished = true;
  }
  return { unfinished, running, importing };
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
  const { node, claim } = table.stored.get(id)!;
  const place = placeOfChain(table.nodes, chain, item, table.keyOf);
  if (chain.some(table.marked)) report(id, 'lives under a node that is being deleted');
  if (chain.length > maxTreeDepth) report(id, `depth ${chain.length} is over ${maxTreeDepth}`);
  if (claim !== undefined && !table.running.has(claim)) report(id, `claimed by job ${claim}, which is not running`);
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
  verifyPathKey(table, node, report);
}

/** A node's path key value claimed for it: its path key item in the parent's collection names it live. */
function verifyPathKey(table: TableIndex, node: TreeNode, report: (nodeId: string, problem: string) => void): void {
  const value = table.pathKeyOf?.(node);
  if (!value) return;
  const key = pathKeyKey(node.parentId!, value);
  table.expected.add(keyString(key));
  const claim = table.byKey.get(keyString(key));
  const holder = claim && decodeItem(PATH_KEY_ITEM, claim)[LIVE];
  if (holder === node.id) return;
  report(
    node.id,
    holder === undefined
      ? `its path key "${value}" is not claimed: no live ${key.sk} item in ${key.pk}`
      : `its path key "${value}" is claimed by "${holder}"`,
  );
}
