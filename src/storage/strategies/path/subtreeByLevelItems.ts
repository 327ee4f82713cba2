import { keyQuery, withProjection } from '../../../dynamodb/keyQuery.js';
import { nodeIdOf, type Item } from '../../../dynamodb/keys.js';
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
 * (from an edge copy) is read by id first, unless it is a root. When the read names the
 * attributes it reads (StrategyContext.reading), neither the items' stored paths nor their sort
 * keys are among them: every level is read whole, so each item's path is its parent's and its
 * parent (pathsByParents), and the pages are named by the nodes' places (childrenTree).
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
  const reading = ctx.reading?.filter((name) => name !== 'path');
  const levels = await Promise.all(
    Array.from({ length: reach }, (_, i) =>
      queryItems(
        ctx.doc,
        withProjection(keyQuery(ctx.table, levelQuery(path, origin.id, i + 1)), reading, []),
        limit + 1,
      ),
    ),
  );
  if (levels.reduce((count, level) => count + level.items.length, 0) > limit) return null;
  const items = reading
    ? pathsByParents(
        levels.map((level) => level.items),
        path,
        origin.id,
      )
    : levels.flatMap(({ items: found }) => found.filter((item) => isBelow(item.path, path, origin.id)));
  return { items, depth: reach };
}

/**
 * The items of whole levels below `originId` (whose ancestors are `originPath`), each given its
 * path: its parent's path and its parent. An item whose parent is not in the level above (its
 * level key only shares the origin's prefix) is not below the origin, and is left out, as
 * isBelow leaves it out by the stored path.
 */
function pathsByParents(levels: Item[][], originPath: string[], originId: string): Item[] {
  const below: Item[] = [];
  let above = new Map([[originId, [...originPath, originId]]]);
  for (const level of levels) {
    const next = new Map<string, string[]>();
    for (const item of level) {
      const path = typeof item.parentId === 'string' ? above.get(item.parentId) : undefined;
      if (!path) continue;
      // Read only, shared by siblings: one array per item, the one its children share.
      item.path = path;
      const id = nodeIdOf(item);
      next.set(id, [...path, id]);
      below.push(item);
    }
    above = next;
  }
  return below;
}
