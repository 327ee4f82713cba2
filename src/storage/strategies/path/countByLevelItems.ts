import { countItems } from '../../../dynamodb/query.js';
import type { StrategyContext } from '../../strategy.js';
import type { TreeNode } from '../../treeStore.js';
import { throughQuery } from '../parts/throughQuery.js';
import { levelQuery } from './levelKeys.js';

/**
 * Depths counted at once: an open window goes on wave after wave until a depth is empty, as
 * descendants read it (descendantsByLevelItems.ts); a bound of up to 9 levels is one wave.
 */
const LEVELS_PER_WAVE = 8;

/**
 * The descendants of a node 1 to `maxDepth` levels below it (null: all). The first level is the
 * node's childCount; each deeper one is one `Select: 'COUNT'` Query of that depth's level items
 * below the node (sort key beginning with its encoded path, and, against a token collision, the
 * path each item keeps running through the node), LEVELS_PER_WAVE depths in one parallel wave.
 * An empty depth ends the subtree: no deeper depth is counted.
 */
export async function countByLevelItems(
  ctx: StrategyContext,
  node: TreeNode,
  maxDepth: number | null,
): Promise<number> {
  const path = node.path ?? [];
  const deepest = Math.min(maxDepth ?? Number.POSITIVE_INFINITY, ctx.maxTreeDepth - path.length);
  const through = { at: path.length, id: node.id };
  let count = node.childCount;
  for (let first = 2; first <= deepest; first += LEVELS_PER_WAVE) {
    const wave: number[] = [];
    for (let depth = first; depth <= Math.min(deepest, first + LEVELS_PER_WAVE - 1); depth++) wave.push(depth);
    const counts = await Promise.all(
      wave.map((depth) => countItems(ctx.doc, throughQuery(ctx.table, levelQuery(path, node.id, depth), through))),
    );
    for (const atDepth of counts) {
      if (atDepth === 0) return count;
      count += atDepth;
    }
  }
  return count;
}
