import { getItem } from '../../../dynamodb/batchGet.js';
import { decodeItem } from '../../../dynamodb/decodeItem.js';
import { pathKeyKey } from '../../../dynamodb/keys.js';
import { badInput } from '../../../errors.js';
import { PATH_KEY_MAX } from '../../../nodeTypes/typedData.js';
import type { PathMatch } from '../../treeStore.js';
import { checkId, isWellFormed } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import type { StoredNode, StrategyContext } from '../../strategy.js';
import { PATH_KEY_ITEM } from '../core/items.js';
import { NO_OPEN_JOBS } from '../core/openJobs.js';
import { readVisible, type ReadScope } from './visibleNodes.js';

/**
 * The node a path names below `rootId` (docs/contract.md, "Paths").
 *
 * Under a strategy that addresses nodes by their paths (path: TreeStrategy.addressed), first the
 * path's address (one Query), then the node it names (one BatchGet, the open jobs' summary with
 * it), returned with the match: two requests. The address answers only while the node's kept place says it is at
 * that path and no job is moving or renaming nodes (the node claimed, an open move): otherwise,
 * and for a path no node has now (an old one), the walk below answers.
 *
 * The walk: one strongly consistent read of a path key item per step, each in the collection of
 * the node the step before found, so `a/b/c` costs three requests whatever the strategy (the node
 * itself is read by the caller, as `node(id)` reads it: one more). A step through a marker (the
 * value a node left when it moved or was renamed) still finds the node, and the match says it
 * moved. null when a step finds nothing. The node found is not read by the walk: whether it
 * exists and the caller may read it is the caller's read (a deleted node's marker finds a node
 * that reads as absent).
 */
export async function resolvePath(
  ctx: StrategyContext & Pick<EngineContext, 'typedData' | 'strategy'>,
  rootId: string,
  path: string,
): Promise<PathMatch | null> {
  checkId(rootId, 'rootId');
  const steps = pathSteps(path, ctx.maxTreeDepth);
  if (![...(ctx.typedData?.nodeTypes.types.values() ?? [])].some((type) => type.pathKey))
    throw badInput('no node type declares a @pathKey field (NODE_TYPES): no path names a node', { field: 'path' });
  const addressed = await byAddress(ctx, rootId, steps.join('/'));
  if (addressed) return addressed;
  let match: PathMatch = { id: rootId, moved: false };
  for (const step of steps) {
    const item = await getItem(ctx.doc, ctx.table, pathKeyKey(match.id, step));
    if (!item) return null;
    const found = decodeItem(PATH_KEY_ITEM, item);
    match = { id: found.live ?? found.id, moved: match.moved || found.live === undefined };
  }
  return match;
}

/** The node at `address` below `rootId` by its address, when the address is surely its own now (resolvePath). */
async function byAddress(
  ctx: StrategyContext & Pick<EngineContext, 'strategy'>,
  rootId: string,
  address: string,
): Promise<PathMatch | null> {
  const ids = ctx.strategy.addressed ? await ctx.strategy.addressed(ctx, rootId, address) : [];
  if (ids.length === 0) return null;
  const scope: ReadScope = {};
  const read = await readVisible(ctx, ids, scope);
  if ((scope.open ?? NO_OPEN_JOBS).moves.length > 0) return null;
  const here = ({ node, deleting, claim }: StoredNode) =>
    deleting === undefined && claim === undefined && node.path?.[0] === rootId && node.keys?.join('/') === address;
  // Two nodes at one path: siblings given one value before it was a path key (tree verify names
  // them). The walk answers, with the one the value's claim names, as every strategy does.
  const [stored, ...others] = [...read.values()].filter(here);
  return stored && others.length === 0 ? { id: stored.node.id, moved: false, node: stored.node } : null;
}

/** A path's steps: path key values joined by "/", none empty, at most one per level below the root. */
export function pathSteps(path: string, maxTreeDepth: number): string[] {
  const steps = path.split('/');
  const problem =
    path.length === 0
      ? 'path is empty: it names a node below rootId by its path key values, joined by "/"'
      : !isWellFormed(path)
        ? 'path is not well-formed Unicode'
        : steps.some((step) => step.length === 0)
          ? `path has an empty step (two "/" in a row, or one at an end): "${[...path].slice(0, 80).join('')}"`
          : steps.length > maxTreeDepth
            ? `path has ${steps.length} steps: at most ${maxTreeDepth} (MAX_TREE_DEPTH)`
            : steps.some((step) => step.length > PATH_KEY_MAX)
              ? `path has a step of more than ${PATH_KEY_MAX} characters (the longest path key)`
              : undefined;
  if (problem) throw badInput(problem, { field: 'path' });
  return steps;
}
