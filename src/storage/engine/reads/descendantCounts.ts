import type { DescendantCountRequest, TreeNode } from '../../treeStore.js';
import { checkCountDepth } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { moveBelow, type OpenJobs } from '../core/openJobs.js';
import { readOpenJobs, type ReadScope } from './visibleNodes.js';

/**
 * `descendantCount`: how many nodes lie 1 to maxDepth levels below each node, exactly, as every
 * read answers (as if every accepted write were complete).
 *
 * - `maxDepth` 0, or a node whose childCount is 0: 0; `maxDepth` 1: the childCount. No read.
 * - Otherwise the strategy's count of its projection (TreeStrategy.countDescendants) while it
 *   counts as the truth would: no subtree being deleted in the tenant (its items stay until the
 *   delete job reaches them), no move job in, out of or through the node's subtree (its items
 *   are half rewritten), no other strategy's projection in the table.
 * - Else, and for a strategy without one, from the truth (countFromTruth): the truth is current
 *   from the instant a write is accepted, a detached subtree is out of it, and an import's nodes
 *   are in it once joined (childCount and edges leave out the others).
 *
 * The nodes of one list are counted together: the node items of those that came without their
 * kept place (from a page of children) in one read by id, and every count's Queries at once.
 */
export async function descendantCounts(
  ctx: EngineContext,
  scope: ReadScope | undefined,
  requests: readonly DescendantCountRequest[],
): Promise<Array<number | Error>> {
  const answers = requests.map((request) => answeredAtOnce(request));
  const counting = requests.filter((_, i) => answers[i] === undefined);
  const { strategy } = ctx;
  if (counting.length === 0 || !strategy.countDescendants) {
    return Promise.all(answers.map(async (answer, i) => answer ?? countOf(() => countFromTruth(ctx, requests[i]!))));
  }
  const open = await readOpenJobs(ctx, scope);
  const placeless = counting
    .filter(({ node }) => strategy.keeps !== 'nothing' && !node.path)
    .map(({ node }) => node.id);
  const read = placeless.length > 0 ? await ctx.getNodes(placeless) : new Map<string, TreeNode>();
  return Promise.all(
    answers.map(async (answer, i) => {
      if (answer !== undefined) return answer;
      const request = requests[i]!;
      const origin = read.get(request.node.id) ?? request.node;
      return countOf(() => countOne(ctx, open, { node: origin, maxDepth: request.maxDepth }));
    }),
  );
}

/** The answer of a request that needs no read (or its refusal); undefined when it must be counted. */
function answeredAtOnce({ node, maxDepth }: DescendantCountRequest): number | Error | undefined {
  try {
    checkCountDepth(maxDepth);
  } catch (error) {
    return error as Error;
  }
  if (maxDepth === 0 || node.childCount === 0) return 0;
  if (maxDepth === 1) return node.childCount;
  return undefined;
}

const countOf = async (count: () => Promise<number>): Promise<number | Error> => {
  try {
    return await count();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
};

/** From the projection when it counts as the truth would, else from the truth. */
async function countOne(ctx: EngineContext, open: OpenJobs, request: DescendantCountRequest): Promise<number> {
  const { strategy } = ctx;
  const { node, maxDepth } = request;
  const path = node.path ?? [];
  // A node item gone since the node was read has no place left to count from: the truth answers.
  const placed = strategy.keeps === 'nothing' || node.path !== undefined;
  const settled =
    placed &&
    open.deleting.size === 0 &&
    (open.projection ?? strategy.name) === strategy.name &&
    !moveBelow(open, node.id, path);
  if (settled && strategy.countDescendants) {
    // A bound that reaches MAX_TREE_DEPTH is no bound: the strategy counts the whole subtree.
    const whole = maxDepth === null || maxDepth >= ctx.maxTreeDepth - path.length;
    const counted = await strategy.countDescendants(ctx, node, whole ? null : maxDepth);
    if (counted !== null) return counted;
  }
  return countFromTruth(ctx, request);
}

/**
 * From the truth's edges: the first level below the node is its childCount, and each level's own
 * children the sum of its nodes' childCounts; so a bound of k reads levels 1 to k - 1 only, one
 * wave of child Queries per level (none for a node without children), and an open window stops
 * at the level whose nodes have none. No walk goes past MAX_TREE_DEPTH levels (no node lies deeper
 * below another), so it ends even in a corrupt tree.
 */
async function countFromTruth(ctx: EngineContext, { node, maxDepth }: DescendantCountRequest): Promise<number> {
  const deepest = Math.min(maxDepth ?? Number.POSITIVE_INFINITY, ctx.maxTreeDepth);
  let count = node.childCount;
  let level: Array<Pick<TreeNode, 'id' | 'childCount'>> = [node];
  for (let depth = 1; depth < deepest; depth++) {
    const parents = level.filter((n) => n.childCount > 0);
    if (parents.length === 0) break;
    level = (await Promise.all(parents.map((parent) => ctx.readChildren(parent.id)))).flat().map((s) => s.node);
    count += level.reduce((sum, n) => sum + n.childCount, 0);
  }
  return count;
}
