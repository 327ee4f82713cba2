import { generateNKeysBetween } from 'fractional-indexing';
import { scanTable } from '../../../dynamodb/scan.js';
import { isTreeError } from '../../../errors.js';
import type { CrowdedParent, RespaceResult, TreeNode } from '../../treeStore.js';
import { checkId } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { isNodeKey, existing, nodeFromItem, storedFromItem } from '../core/items.js';
import { readVisible } from '../reads/visibleNodes.js';
import { placeChild } from './moveNode.js';
import { queryChildren } from '../core/reads.js';
import { holdParent, releaseRespacing, RESPACE_HOLD_MS } from '../guard/holds.js';

/**
 * Respacing: sibling positions are fractional indexes, and one grows by about a character every
 * few inserts into the same gap. Long positions cost nothing but bytes under adjacency, path and
 * closure; under nested-set every level of a node's document key holds one, and a key is
 * limited to 1,024 bytes. Respacing gives a node's children new positions that are short and
 * evenly spaced (`a1`, `a2`, ...), keeping their order, without ever showing another order:
 *
 * - the parent is held (its `respacing` attribute, planHold) for the whole respacing: every
 *   create under it, move into it and reorder among its children checks it (planNotRespacing,
 *   whatever the strategy) and answers CONFLICT; nothing else is refused;
 * - the new positions all sort after the last child's, and the children are moved from the last
 *   to the first, each by an ordinary reorder (its own transaction, or a move job under
 *   nested-set for a big subtree) that renews the hold: after every step the order is the old one;
 * - a respacing that stops half-way (its process died) leaves the order intact and the hold to
 *   expire within RESPACE_HOLD_MS; run again, it respaces the group anew.
 *
 * Children that leave the parent meanwhile (moved away, deleted: neither is refused) are skipped.
 * The roots are not respaced: no key but their own edge's holds their positions.
 */

export async function respaceChildren(ctx: EngineContext, parentId: string): Promise<RespaceResult> {
  checkId(parentId, 'parentId');
  const parent = existing(await readVisible(ctx, [parentId]), parentId, 'parent');
  let until = await holdParent(ctx, parent);
  const children = await childrenOf(ctx, parentId);
  const last = children[children.length - 1];
  const positions = last ? generateNKeysBetween(last.position, null, children.length) : [];
  const moved: TreeNode[] = [];
  try {
    for (let i = children.length - 1; i >= 0; i--) {
      const renewed = Date.now() + RESPACE_HOLD_MS;
      const step = { id: children[i]!.id, parentId, position: positions[i]!, hold: { until, renewed } };
      const node = await placeChild(ctx, step).catch((error: unknown) => {
        // The child (or the parent with it) was deleted meanwhile: nothing to respace.
        if (isTreeError(error, 'NOT_FOUND')) return null;
        throw error;
      });
      if (node?.parentId !== parentId || node.position !== positions[i]) continue;
      until = renewed;
      moved.push(node);
    }
  } finally {
    await releaseRespacing(ctx, parent, until);
  }
  return { respaced: moved.length, moved };
}

/**
 * The parents whose children hold a position longer than `longerThan` characters, or two
 * children the same position (two writers placed them in one slot at the same instant: the
 * edges order them by id, nested-set's document keys by a token of it), with their depths,
 * deepest first, from one scan of the table (strongly consistent), the roots left out.
 */
export async function crowdedParents(ctx: EngineContext, longerThan: number): Promise<CrowdedParent[]> {
  const parentOf = new Map<string, string | null>();
  const parents = new Set<string>();
  const slots = new Set<string>();
  for (const item of await scanTable(ctx.doc, ctx.table)) {
    if (!isNodeKey(item)) continue;
    const { node, deleting } = storedFromItem(item);
    if (deleting !== undefined) continue;
    parentOf.set(node.id, node.parentId);
    if (node.parentId === null) continue;
    const slot = `${node.parentId}\u0000${node.position}`;
    if (node.position.length > longerThan || slots.has(slot)) parents.add(node.parentId);
    slots.add(slot);
  }
  const depthOf = (id: string): number => {
    let depth = 0;
    for (let at = parentOf.get(id); at != null && depth <= ctx.maxTreeDepth; at = parentOf.get(at)) depth++;
    return depth;
  };
  return [...parents]
    .map((id) => ({ id, depth: depthOf(id) }))
    .sort((a, b) => b.depth - a.depth || (a.id < b.id ? -1 : 1));
}

/** Every child of the parent, in sibling order, read from its edge items. */
async function childrenOf(ctx: EngineContext, parentId: string): Promise<TreeNode[]> {
  return (await queryChildren(ctx, parentId)).items.map(nodeFromItem);
}
