import { nodeWith, type DescendantsRequest, type Page, type TreeNode } from '../../treeStore.js';
import { checkPage, checkWindow } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { moveBelow, projectionSettled } from '../core/openJobs.js';
import { descendantsFromTruth } from './descendantsFromTruth.js';
import { leaving, readOpenJobs, type ReadScope } from './visibleNodes.js';
import { preorderPage } from './preorderPage.js';

/**
 * One page of descendants. By depth: the strategy's bulk read of its projection when it has one,
 * no job makes it unsafe and the strategy finds the window worth it; else the strategy's read;
 * while a move job is open below the node, from the truth (descendantsFromTruth.ts), which
 * answers as if the job were done. In
 * document order: the strategy's read of its projection when it has one and no job makes it
 * unsafe, else the truth's edges (preorderPage.ts).
 */
export async function descendantsPage(
  engine: EngineContext,
  scope: ReadScope | undefined,
  { node, window, page, order, leftOut }: DescendantsRequest,
): Promise<Page> {
  const ctx = leaving(engine, leftOut);
  checkPage(page);
  checkWindow(window);
  // No node lies deeper below another than the tree's depth limit: such a window is empty, read
  // nothing for it; a bound past it is the limit (the strategies' keys need not go further).
  if (window.minDepth > ctx.maxTreeDepth) return { edges: [], hasNextPage: false };
  if (order === 'PREORDER') {
    const settled = ctx.strategy.preorder && projectionSettled(await readOpenJobs(ctx, scope), ctx.strategy.name);
    return (
      (settled && (await ctx.strategy.preorder!(ctx, node, window, page))) || preorderPage(ctx, node, window, page)
    );
  }
  const bounded =
    window.maxDepth !== null && window.maxDepth > ctx.maxTreeDepth ? { ...window, maxDepth: ctx.maxTreeDepth } : window;
  const { strategy } = ctx;
  const bulk =
    strategy.descendantsInBulk && projectionSettled(await readOpenJobs(ctx, scope), strategy.name)
      ? await strategy.descendantsInBulk(ctx, node, bounded, page)
      : null;
  if (bulk) return bulk;
  const found = await strategy.descendants(ctx, node, bounded, page);
  if (strategy.keeps === 'nothing' || strategy.descendantsFrom === 'truth') return found;
  // The strategy's read loaded the open jobs into the scope (with the page's nodes).
  const open = await readOpenJobs(ctx, scope);
  if (open.moves.length === 0) return found;
  const origin = node.path ? node : (await ctx.getNodes([node.id])).get(node.id);
  if (!origin?.path || !moveBelow(open, origin.id, origin.path)) return found;
  return descendantsFromTruth(
    ctx,
    strategy.descendantSortKey,
    nodeWith(origin, { path: origin.path }) as TreeNode & { path: string[] },
    bounded,
    page,
  );
}
