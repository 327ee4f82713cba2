import { getItem } from '../../../dynamodb/batchGet.js';
import { decodeItem } from '../../../dynamodb/decodeItem.js';
import { pathKeyKey } from '../../../dynamodb/keys.js';
import { badInput } from '../../../errors.js';
import { PATH_KEY_MAX } from '../../../nodeTypes/typedData.js';
import type { PathMatch } from '../../treeStore.js';
import { checkId, isWellFormed } from '../../validation.js';
import type { EngineContext, TableContext } from '../core/engineContext.js';
import { PATH_KEY_ITEM } from '../core/items.js';

/**
 * The node a path names below `rootId` (docs/contract.md, "Paths"): one strongly consistent read
 * of a path key item per step, each in the collection of the node the step before found, so
 * `a/b/c` costs three requests whatever the strategy (the node itself is read by the caller, as
 * `node(id)` reads it: one more). A step through a marker (the value a node left when it moved
 * or was renamed) still finds the node, and the match says it moved. null when a step finds
 * nothing. The node found is not read here: whether it exists and the caller may read it is the
 * caller's read (a deleted node's marker finds a node that reads as absent).
 */
export async function resolvePath(
  ctx: TableContext & Pick<EngineContext, 'typedData'>,
  rootId: string,
  path: string,
): Promise<PathMatch | null> {
  checkId(rootId, 'rootId');
  const steps = pathSteps(path, ctx.maxTreeDepth);
  if (![...(ctx.typedData?.nodeTypes.types.values() ?? [])].some((type) => type.pathKey))
    throw badInput('no node type declares a @pathKey field (NODE_TYPES): no path names a node', { field: 'path' });
  let match: PathMatch = { id: rootId, moved: false };
  for (const step of steps) {
    const item = await getItem(ctx.doc, ctx.table, pathKeyKey(match.id, step));
    if (!item) return null;
    const found = decodeItem(PATH_KEY_ITEM, item);
    match = { id: found.live ?? found.id, moved: match.moved || found.live === undefined };
  }
  return match;
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
