import type { Item } from '../../../dynamodb/keys.js';
import { withProjection } from '../../../dynamodb/keyQuery.js';
import { queryWithin } from '../../../dynamodb/query.js';
import type { Place, StrategyContext, SubtreeItems } from '../../strategy.js';
import type { DepthWindow, Page, PageArgs, TreeNode } from '../../treeStore.js';
import { follows, levelsPage, markParentsSeen, type LevelEntry } from '../parts/descendantsByLevels.js';
import { throughQuery } from '../parts/throughQuery.js';
import { chainOf } from './preorderByRange.js';
import { rangeItemOf, subtreeKeys } from './rangeKeys.js';

/**
 * The most range items one bulk read goes through, counted before its depth filter (what
 * DynamoDB bills): about 1 MB of items with their copies, one request.
 */
export const RANGE_ITEMS = 2000;

/**
 * The nodes of a depth window below a node, from one bounded read of its range: the range holds
 * every depth of the subtree in document order, and a filter on the depth each item's kept path
 * gives keeps the window's. Worth it when the subtree is small beside what is asked for: one
 * Query answers what a walk of its levels answers with one Query per parent. The rule, from what
 * is known before reading: never for the children alone (their edges are one exact Query) nor
 * for a node without children; never when the node has more children than `budget` (at most
 * RANGE_ITEMS: twice the page, or the nodes lookahead's pages may hold); otherwise one Query of
 * at most `budget` items, and when the range goes on past them (the subtree is deeper or wider
 * than what is asked for), null: the caller reads per parent, and that Query, at most twice what
 * the read returns, was the price of finding out.
 */
export async function rangeWindow(
  ctx: StrategyContext,
  node: TreeNode,
  window: DepthWindow,
  budget: number,
): Promise<{ origin: TreeNode; items: Item[] } | null> {
  if (node.childCount === 0 || node.childCount > budget) return null;
  if (window.maxDepth !== null && window.maxDepth < 2) return null;
  const origin =
    node.parentId === null || (node.path && node.lineage) ? node : (await ctx.getNodes([node.id])).get(node.id);
  if (!origin) return null;
  const place: Place = { path: origin.path ?? [], lineage: origin.lineage ?? [], keys: [] };
  const depth = place.path.length;
  const base = throughQuery(
    ctx.table,
    subtreeKeys(origin.id, place),
    depth === 0 ? undefined : { at: depth, id: origin.id },
  );
  const bounded = window.maxDepth !== null;
  const filter = bounded ? 'size(#path) BETWEEN :shallowest AND :deepest' : 'size(#path) >= :shallowest';
  const query = {
    ...base,
    FilterExpression: base.FilterExpression ? `${base.FilterExpression} AND ${filter}` : filter,
    ExpressionAttributeNames: { ...base.ExpressionAttributeNames, '#path': 'path' },
    ExpressionAttributeValues: {
      ...base.ExpressionAttributeValues,
      ':shallowest': depth + Math.max(1, window.minDepth),
      ...(bounded ? { ':deepest': depth + window.maxDepth! } : {}),
    },
  };
  const read = withProjection(query, ctx.reading, ['sk']);
  const { items, complete } = await queryWithin(ctx.doc, read, Math.min(budget, RANGE_ITEMS));
  return complete ? { origin, items } : null;
}

/**
 * The first page of a by-depth window from one read of the range (rangeWindow, within twice the
 * page), in the order and with the cursors of the walk of levels (descendantsByLevels.ts): by
 * depth, then by the chain of edge sort keys from the node, which is document order within a
 * depth. Null when the rule says per parent, and for any later page (a cursor, or backwards): a
 * window that needs more than one page is paged on by the walk, which reads what each page holds,
 * where the range would be read whole again for each.
 */
export async function descendantsByRange(
  ctx: StrategyContext,
  node: TreeNode,
  window: DepthWindow,
  page: PageArgs,
): Promise<Page | null> {
  if (page.after != null || page.backwards) return null;
  const read = await rangeWindow(ctx, node, window, 2 * (page.first + 1));
  if (!read) return null;
  const { origin, items } = read;
  const depth = origin.path?.length ?? 0;
  const nodes = await ctx.nodesOf(items);
  const entries: LevelEntry[] = window.minDepth === 0 ? [{ node: origin, depth: 0, path: [] }] : [];
  for (const item of items) {
    const range = rangeItemOf(item);
    const found = nodes.get(range.id);
    if (found) entries.push({ node: found, depth: range.path.length - depth, path: chainOf(range, depth) });
  }
  entries.sort((a, b) => (follows(a, b) ? 1 : follows(b, a) ? -1 : 0));
  // The whole window is read: what each cursor says of its depth is known.
  markParentsSeen(entries, false);
  return levelsPage(ctx, origin, window, page, entries);
}

/** Children `depth` levels deep, for lookahead (TreeStrategy.subtreeItems): the window 1..depth. */
export async function subtreeByRange(
  ctx: StrategyContext,
  node: TreeNode,
  depth: number,
  limit: number,
): Promise<SubtreeItems | null> {
  const read = await rangeWindow(ctx, node, { minDepth: 1, maxDepth: depth }, limit);
  return read ? { items: read.items, depth } : null;
}
