import { keyQuery, withProjection } from '../../../dynamodb/keyQuery.js';
import { nodeIdOf, sortKeyOf } from '../../../dynamodb/keys.js';
import { queryItems } from '../../../dynamodb/query.js';
import { decodeWindowCursor, windowEdge } from '../../cursor.js';
import type { StrategyContext } from '../../strategy.js';
import { nodeWith, type DepthWindow, type Page, type PageArgs, type TreeNode } from '../../treeStore.js';
import { CLOSURE_SK_PREFIX, closureRange, distanceOf, rowsReading, withDescendants } from './closureKeys.js';

/**
 * Descendants from closure rows: one Query of the node's rows with the distance range in the
 * key condition (exact, paged by DynamoDB). The rows carry their node; past COPY_DISTANCE
 * without its childCount and data, so a page that reads those reads its farther nodes by one
 * BatchGet (ctx.nodesOf). Within one depth, descendants come in id order.
 * Backwards, the same Query in descending key order.
 */
export async function descendantsByRows(
  ctx: StrategyContext,
  node: TreeNode,
  window: DepthWindow,
  page: PageArgs,
): Promise<Page> {
  const after = page.after == null ? undefined : decodeCursor(ctx, page.after, node, window);
  const edgeAt = (s: string, d: number, found: TreeNode) => windowEdge(ctx.cursors, node.id, window, { d, s }, found);
  const edges: Page['edges'] = [];
  // The node itself (minDepth 0) comes before its rows: first forwards, last backwards.
  const self = window.minDepth === 0 && (page.backwards ? after !== null : after === undefined);
  if (self && !page.backwards) edges.push(edgeAt('', 0, node));
  const wanted = page.first + 1 - edges.length;
  // Backwards from the node itself: no row comes before it.
  const noRows = window.maxDepth === 0 || (page.backwards && after === null);
  const range = { ...closureRange(node.id, window, after ?? undefined), backwards: page.backwards };
  const reading = rowsReading(ctx.reading);
  const rows = noRows
    ? []
    : withDescendants(
        (await queryItems(ctx.doc, withProjection(keyQuery(ctx.table, range), reading, ['sk']), wanted)).items,
        reading,
      );
  const total = edges.length + rows.length + (self && page.backwards ? 1 : 0);
  const pageRows = rows.slice(0, page.first - edges.length);
  const nodes = await ctx.nodesOf(pageRows);
  for (const row of pageRows) {
    const sk = sortKeyOf(row);
    const found = nodes.get(nodeIdOf(row));
    const distance = distanceOf(sk);
    if (found) edges.push(edgeAt(sk, distance, placedBelow(node, found, distance)));
  }
  if (self && page.backwards && rows.length < page.first) edges.push(edgeAt('', 0, node));
  return { edges, hasNextPage: total > page.first };
}

/** The sort key to resume after (null for the node itself: resume at the first row). */
function decodeCursor(ctx: StrategyContext, raw: string, origin: TreeNode, window: DepthWindow): string | null {
  const c = decodeWindowCursor(
    ctx.cursors,
    raw,
    origin.id,
    window,
    (p) => typeof p.s === 'string' && (p.s === '' || p.s.startsWith(CLOSURE_SK_PREFIX)),
  );
  return c.s === '' ? null : (c.s as string);
}

/** A node read from a row `distance` below `origin`: its depth and root, when the origin knows its own. */
function placedBelow(origin: TreeNode, node: TreeNode, distance: number): TreeNode {
  if (node.depth !== undefined || origin.depth === undefined) return node;
  return nodeWith(node, { depth: origin.depth + distance, rootId: origin.rootId ?? origin.id });
}
