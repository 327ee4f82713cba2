import { keyQuery, withProjection } from '../../../dynamodb/keyQuery.js';
import { queryItems } from '../../../dynamodb/query.js';
import type { StrategyContext, SubtreeItems } from '../../strategy.js';
import type { TreeNode } from '../../treeStore.js';
import { closureRange, COPY_DISTANCE, rowsReading, withDescendants } from './closureKeys.js';

/**
 * Every node up to `depth` (at most COPY_DISTANCE) levels below `node`: one Query of its rows
 * at those distances, which carry their nodes; null past `limit` rows.
 */
export async function subtreeByRows(
  ctx: StrategyContext,
  node: TreeNode,
  depth: number,
  limit: number,
): Promise<SubtreeItems | null> {
  const reach = Math.min(depth, COPY_DISTANCE);
  const rows = keyQuery(ctx.table, closureRange(node.id, { minDepth: 1, maxDepth: reach }));
  const reading = rowsReading(ctx.reading);
  const { items } = await queryItems(ctx.doc, withProjection(rows, reading, ['sk']), limit + 1);
  return items.length > limit ? null : { items: withDescendants(items, reading), depth: reach };
}
