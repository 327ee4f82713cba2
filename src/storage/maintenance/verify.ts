import { keyString, type Item, type Key } from '../../dynamodb/keys.js';
import { collectionPk, edgeKey, nodeAttributes, nodeFromItem, PENDING } from '../engine/core/items.js';
import { OPEN_JOBS_KEY } from '../engine/core/openJobs.js';
import { strategyNamed, type StrategyName } from '../strategies/strategies.js';
import { chainPlace, chainsOf } from '../engine/core/chains.js';
import { projectionItems } from '../engine/core/projectionPlans.js';
import { kindOf } from './kindOf.js';

/**
 * Pure: checks a whole table (all its items) against the truth. The truth itself must be a
 * forest (no cycle, no orphan, depth within the limit) with exactly one matching edge copy per
 * node and childCount equal to the edges below it; the strategy's projections must equal what
 * the truth implies (its nodeFields and itemsFor for each node's chain). Nodes of an unfinished
 * delete job are skipped, and so are those of an import job that has not joined them to the tree.
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
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, canonical(v)]))
      : value;
const sameJson = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

export function verifyItems(items: Array<Item & Key>, strategyName: StrategyName, maxTreeDepth: number): Problem[] {
  const strategy = strategyNamed(strategyName);
  const problems: Problem[] = [];
  const report = (nodeId: string, problem: string) => problems.push({ nodeId, problem });
  const nodes = new Map<string, Item>();
  const byKey = new Map<string, Item & Key>();
  const edgesUnder = new Map<string, number>();
  // Only unfinished work leaves strays: not the list of open jobs, nor finished jobs' records.
  const jobs = items.filter(
    (item) => kindOf(item) === 'job' && item.sk !== OPEN_JOBS_KEY.sk && item.status !== 'DONE' && item.status !== 'FAILED',
  );
  // The nodes of an import that has not joined them to the tree are not in it yet, nor are the
  // edges of its top nodes, in their parent's collection.
  const importing = new Set(jobs.filter((job) => job.kind === 'IMPORT' && job.joined !== true).map((job) => String(job.id)));
  for (const item of items) {
    byKey.set(keyString(item), item);
    if (kindOf(item) === 'node') nodes.set(String(item.id), item);
    if (kindOf(item) === 'edge' && !importing.has(String(item[PENDING]))) edgesUnder.set(item.pk, (edgesUnder.get(item.pk) ?? 0) + 1);
  }
  const deleting = (id: string) => typeof nodes.get(id)?.deleting === 'string';
  const hidden = (id: string) => importing.has(String(nodes.get(id)?.[PENDING]));
  const facts = chainsOf(nodes, maxTreeDepth);
  const expected = new Set<string>();

  for (const [id, item] of nodes) {
    if (deleting(id) || hidden(id)) continue;
    const fact = facts.get(id)!;
    if (fact.problem) {
      report(id, fact.problem);
      continue;
    }
    const chain = fact.chain!;
    const place = chainPlace(nodes, chain, item);
    if (chain.some(deleting)) report(id, 'lives under a node that is being deleted');
    if (chain.length > maxTreeDepth) report(id, `depth ${chain.length} is over ${maxTreeDepth}`);
    const node = nodeFromItem(item);
    const edge = byKey.get(keyString(edgeKey(node)));
    expected.add(keyString(edgeKey(node)));
    if (!edge) report(id, 'has no edge item in its parent collection');
    else if (!sameJson(nodeAttributes(nodeFromItem(edge)), nodeAttributes(node))) report(id, 'edge copy differs from the node');
    const children = edgesUnder.get(collectionPk(id)) ?? 0;
    if (children !== node.childCount) report(id, `childCount ${node.childCount}, but ${children} children`);
    for (const [field, value] of Object.entries(strategy.nodeFields(place))) {
      if (!sameJson(item[field], value)) {
        report(id, `stored ${field} ${JSON.stringify(item[field] ?? null)}, expected ${JSON.stringify(value)}`);
      }
    }
    for (const projected of projectionItems(strategy, node, place)) {
      expected.add(keyString(projected));
      const found = byKey.get(keyString(projected));
      if (!found) report(id, `missing projection item ${projected.pk} ${projected.sk}`);
      else if (!sameJson({ ...found }, { ...projected })) report(id, `projection item ${projected.pk} ${projected.sk} differs`);
    }
  }
  const kinds = ['edge', strategy.name];
  for (const item of items) {
    if (!kinds.includes(kindOf(item)) || expected.has(keyString(item))) continue;
    const id = String(item.id ?? '?');
    if (deleting(id) || hidden(id) || (jobs.length > 0 && !nodes.has(id))) continue;
    const kind = kindOf(item);
    report(id, `stray ${kind === 'edge' ? kind : strategy.itemName} item ${item.pk} ${item.sk}`);
  }
  return problems;
}
