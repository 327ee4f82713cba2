import { edgeSk } from '../../../dynamodb/keys.js';
import { withProjection } from '../../../dynamodb/keyQuery.js';
import { queryItems } from '../../../dynamodb/query.js';
import { decodePreorderCursor, windowEdge } from '../../cursor.js';
import type { Place, StrategyContext } from '../../strategy.js';
import type { DepthWindow, Page, PageArgs, TreeNode } from '../../treeStore.js';
import { throughQuery } from '../parts/throughQuery.js';
import { documentKey, keyOfChain, rangeItemOf, subtreeKeys, type RangeItem } from './rangeKeys.js';

/**
 * A page of descendants in document order from range items (rangeKeys.ts), with the cursors of
 * the engine's walk of the truth (the chain of edge sort keys from the origin down, cursor.ts),
 * so that a client pages on across the two when a job opens or closes meanwhile.
 *
 * The whole subtree is one key range of its tree's collection (a root's: the whole collection):
 * one Query per page, whatever the page spans. A window with a depth bound, or that starts below
 * the children, is left to the walk (null): a range holds every depth, and would be read through
 * to skip them. So is a page read backwards.
 */
export async function preorderByRange(
  ctx: StrategyContext,
  node: TreeNode,
  window: DepthWindow,
  page: PageArgs,
): Promise<Page | null> {
  if (page.backwards || window.maxDepth !== null || window.minDepth > 1) return null;
  const origin = node.path && node.lineage ? node : (await ctx.getNodes([node.id])).get(node.id);
  if (!origin?.path || !origin.lineage) return null;
  const place: Place = { path: origin.path, lineage: origin.lineage, keys: [] };
  const after =
    page.after == null ? null : decodePreorderCursor(ctx.cursors, ctx.maxTreeDepth, page.after, origin.id, window);
  const found: Array<{ node: TreeNode; chain: string[] }> = [];
  if (after === null && window.minDepth === 0) found.push({ node: origin, chain: [] });
  const range = subtreeKeys(origin.id, place);
  const key = documentKey(origin.id, place) ?? '';
  // Resume after the cursor's node, or after the origin's own item (a root has none).
  const start = after === null ? (key === '' ? undefined : key) : keyOfChain(key, after);
  const depth = place.path.length;
  const through = depth === 0 ? undefined : { at: depth, id: origin.id };
  const query = throughQuery(ctx.table, { ...range, ...(start === undefined ? {} : { after: start }) }, through);
  const read = withProjection(query, ctx.reading, ['sk']);
  const { items } = await queryItems(ctx.doc, read, page.first + 1 - found.length);
  const nodes = await ctx.nodesOf(items);
  for (const item of items) {
    const range = rangeItemOf(item);
    const at = nodes.get(range.id);
    if (at) found.push({ node: at, chain: chainOf(range, depth) });
  }
  return {
    edges: found
      .slice(0, page.first)
      .map(({ node: at, chain }) => windowEdge(ctx.cursors, origin.id, window, { x: 'pre', c: chain }, at)),
    hasNextPage: found.length > page.first,
  };
}

/** The edge sort keys from a node at `originDepth` down to a range item's node, from the place it keeps. */
export function chainOf(range: RangeItem, originDepth: number): string[] {
  const ids = [...range.path, range.id];
  const { lineage } = range;
  const chain: string[] = [];
  for (let depth = originDepth + 1; depth < ids.length; depth++) chain.push(edgeSk(lineage[depth]!, ids[depth]!));
  return chain;
}
