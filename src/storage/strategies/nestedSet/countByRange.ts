import { countItems } from '../../../dynamodb/query.js';
import type { Place, StrategyContext } from '../../strategy.js';
import type { TreeNode } from '../../treeStore.js';
import { countQuery } from '../parts/countQuery.js';
import { branchOf, documentKey, rangePk, subtreeRange } from './rangeKeys.js';

/**
 * The whole subtree of a node, from its range: below a node of depth 1 or more, one
 * `Select: 'COUNT'` Query of its key range (the node's own item left out, as any item whose kept
 * path does not run through the node: a document key's id tokens are short, and may collide);
 * below a root, one Query of its edges, then one count of each child's range collection, the
 * child's own item included, for every child that has children, in one wave. A count pages by
 * 1 MB of range items, as a read does.
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
  const place: Place = { path: node.path ?? [], lineage: node.lineage ?? [] };
  const key = documentKey(node.id, place);
  if (key !== null) {
    const range = { pk: rangePk(branchOf(node.id, place)), sk: { between: subtreeRange(key) } };
    return countItems(ctx.doc, countQuery(ctx.table, range, { at: place.path.length, id: node.id }));
  }
  const children = await ctx.readChildren(node.id);
  const counts = await Promise.all(
    children.map(async ({ node: child }) =>
      child.childCount === 0 ? 1 : countItems(ctx.doc, countQuery(ctx.table, { pk: rangePk(child.id) })),
    ),
  );
  return counts.reduce((sum, n) => sum + n, 0);
}
