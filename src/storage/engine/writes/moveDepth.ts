import type { StoredNode } from '../../strategy.js';
import type { EngineContext } from '../core/engineContext.js';
import { checkDepth } from './guard/guardedPlace.js';
import { holdMoving, releaseHold } from '../guard/holds.js';
import { keptFields, placeOf } from '../core/projectionPlans.js';

/**
 * The depth limit on a move to another parent, reading only what it needs: nothing when the
 * node goes no deeper than it is (the tree obeys the limit); otherwise whether its subtree
 * reaches the relative depth that would cross it (one read of the strategy's descendants, one
 * node wide: a Query under path and closure, a walk of the levels down to it under adjacency).
 *
 * `oldAncestors`: the moving node's ancestors, when the caller walked them (a strategy that
 * keeps no path). With `hold` (a strategy that guards no moved subtree), a move that goes deeper first holds
 * the moving node, so that no write adds a node below it between this read and the move's
 * commit: the answer is then the instant the hold lasts until, which the move's transaction
 * releases (planReleaseHold). A refused move releases at once. 0: nothing held.
 */
export async function checkMoveDepth(
  ctx: EngineContext,
  moving: StoredNode,
  chain: readonly StoredNode[],
  options: { hold: boolean; oldAncestors?: readonly string[] },
): Promise<number> {
  const newDepth = chain.length;
  checkDepth(ctx, newDepth);
  const oldDepth = keptFields(ctx.strategy).path
    ? placeOf(ctx.strategy, moving).path.length
    : (options.oldAncestors ?? (await ctx.strategy.readChain(ctx, moving)).slice(0, -1)).length;
  if (newDepth <= oldDepth) return 0;
  const until = options.hold ? await holdMoving(ctx, moving) : 0;
  try {
    const room = ctx.maxTreeDepth - newDepth;
    const window = { minDepth: room + 1, maxDepth: null };
    const reaches = ctx.strategy.reaches
      ? await ctx.strategy.reaches(ctx, moving.node, room + 1)
      : (await ctx.strategy.descendants(ctx, moving.node, window, { first: 1 })).edges.length > 0;
    if (reaches) checkDepth(ctx, ctx.maxTreeDepth + 1);
  } catch (error) {
    if (until) await releaseHold(ctx, moving, until);
    throw error;
  }
  return until;
}
