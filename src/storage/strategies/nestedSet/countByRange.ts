import { countItems } from '../../../dynamodb/query.js';
import type { Place, StrategyContext } from '../../strategy.js';
import type { TreeNode } from '../../treeStore.js';
import { throughQuery } from '../parts/throughQuery.js';
import { subtreeKeys } from './rangeKeys.js';

/**
 * The whole subtree of a node, from its range: one `Select: 'COUNT'` Query of its key range (a
 * root's: its tree's whole collection), paged by 1 MB of range items as a read is. Below a node
 * of depth 1 or more, its own item is left out, as any item whose kept path does not run through
 * the node: a document key's id tokens are short, and may collide.
 *
 * A depth bound: null, for the engine's walk of the levels above the bound. The range holds every
 * depth of the subtree, and a count of it would read them all, however few levels are asked for.
 */
export async function countByRange(
  ctx: StrategyContext,
  node: TreeNode,
  maxDepth: number | null,
): Promise<number | null> {
  if (maxDepth !== null) return null;
  const place: Place = { path: node.path ?? [], lineage: node.lineage ?? [], keys: [] };
  const through = place.path.length === 0 ? undefined : { at: place.path.length, id: node.id };
  return countItems(ctx.doc, throughQuery(ctx.table, subtreeKeys(node.id, place), through));
}
