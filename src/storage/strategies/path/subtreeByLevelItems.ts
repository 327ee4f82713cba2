import { keyQuery, withProjection } from '../../../dynamodb/keyQuery.js';
import { queryItems } from '../../../dynamodb/query.js';
import type { StrategyContext, SubtreeItems } from '../../strategy.js';
import type { TreeNode } from '../../treeStore.js';
import { isBelow } from './descendantsByLevelItems.js';
import { levelQuery } from './levelKeys.js';

/** The most levels one bulk read asks for (one Query each, in one wave). */
const MAX_LEVELS = 8;

/**
 * Every node up to `depth` levels below `node`: one exact Query per level, all in one wave, of
 * level items that carry their nodes; null past `limit` items. A node read without its path
 * (from an edge copy) is read by id first, unless it is a root.
 */
export async function subtreeByLevelItems(
  ctx: StrategyContext,
  node: TreeNode,
  depth: number,
  limit: number,
): Promise<SubtreeItems | null> {
  const origin = node.path || node.parentId === null ? node : (await ctx.getNodes([node.id])).get(node.id);
  if (!origin) return null;
  const path = origin.path ?? [];
  const reach = Math.min(depth, MAX_LEVELS, ctx.maxTreeDepth - path.length);
  const levels = await Promise.all(
    Array.from({ length: reach }, (_, i) =>
      queryItems(
        ctx.doc,
        withProjection(keyQuery(ctx.table, levelQuery(path, origin.id, i + 1)), ctx.reading, []),
        limit + 1,
      ),
    ),
  );
  const items = levels.flatMap(({ items: found }) => found.filter((item) => isBelow(item.path, path, origin.id)));
  return items.length > limit ? null : { items, depth: reach };
}
