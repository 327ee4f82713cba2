import { badInput, TreeError } from '../../../errors.js';
import type { StoredNode } from '../../strategy.js';
import type { TreeNode } from '../../treeStore.js';
import type { TableContext } from '../core/engineContext.js';
import { edgeSk, existing } from '../core/items.js';
import { positionBetween } from '../core/position.js';
import { readAdjacent } from '../core/reads.js';
import type { Slot } from '../core/writePlans.js';

export interface SlotRequest {
  parentId: string | null;
  /** The node being placed (a new id for a create). */
  placingId: string;
  before?: string | null;
  after?: string | null;
  /** Stored nodes already read in this attempt (before/after among them). */
  known: ReadonlyMap<string, StoredNode>;
}

const skOf = (n: TreeNode) => edgeSk(n.position, n.id);
const parentLabel = (parentId: string | null) => (parentId === null ? 'a root' : `a child of "${parentId}"`);

/** A sibling named in before/after: it must exist (NOT_FOUND) and share the target parent. */
function sibling(req: SlotRequest, id: string, field: 'before' | 'after'): TreeNode {
  if (id === req.placingId) throw badInput(`${field} cannot name the node being placed ("${id}")`, { field });
  const node = existing(req.known, id, `${field} sibling`).node;
  if (node.parentId !== req.parentId) {
    throw badInput(`${field} "${id}" is not ${parentLabel(req.parentId)}`, { field });
  }
  return node;
}

/**
 * Where a node goes among its new siblings: between the named neighbours, or last by default.
 * Costs one Query for the neighbour on the open side. `unchanged` is true when the node already
 * sits in that slot under that parent (a reorder that changes nothing).
 */
export async function findSlot(
  ctx: TableContext,
  req: SlotRequest,
  current?: TreeNode,
): Promise<Slot & { unchanged: boolean }> {
  const before = req.before ? sibling(req, req.before, 'before') : null;
  const after = req.after ? sibling(req, req.after, 'after') : null;
  let prev: TreeNode | null;
  let next: TreeNode | null;
  if (before && after) {
    const following = await readAdjacent(ctx, req.parentId, skOf(after), 'after', req.placingId);
    if (following?.node.id !== before.id) {
      throw badInput(`after "${after.id}" and before "${before.id}" are not adjacent siblings`, {
        field: 'before',
      });
    }
    [prev, next] = [after, before];
  } else if (before) {
    prev = (await readAdjacent(ctx, req.parentId, skOf(before), 'before', req.placingId))?.node ?? null;
    next = before;
  } else if (after) {
    prev = after;
    next = (await readAdjacent(ctx, req.parentId, skOf(after), 'after', req.placingId))?.node ?? null;
  } else {
    prev = (await readAdjacent(ctx, req.parentId, null, 'before', req.placingId))?.node ?? null;
    next = null;
  }
  const neighbours = [prev, next].filter((n): n is TreeNode => n !== null);
  if (
    current &&
    current.parentId === req.parentId &&
    (prev === null || skOf(prev) < skOf(current)) &&
    (next === null || skOf(current) < skOf(next))
  ) {
    return { position: current.position, neighbours, unchanged: true };
  }
  const position = positionBetween(prev?.position ?? null, next?.position ?? null);
  if (position.length > MAX_POSITION_LENGTH) throw gapUsedUp(position.length);
  return { position, neighbours, unchanged: false };
}

/**
 * The longest sibling position a write gives, in characters (base 62, a byte each). A position
 * grows by a character about every six inserts into one gap, and goes into the edge's sort key
 * (`E#<position>#<id>`, at most 1,024 bytes in DynamoDB) and under nested-set into every
 * descendant's document key: past this, the write is refused before any write, under every strategy.
 */
export const MAX_POSITION_LENGTH = 512;

const gapUsedUp = (positionLength: number): TreeError<'DEPTH_LIMIT'> =>
  new TreeError(
    'DEPTH_LIMIT',
    `the gap between these siblings is used up (many inserts into it): the node's position would be ` +
      `${positionLength} characters, over ${MAX_POSITION_LENGTH}; place it elsewhere among its siblings, ` +
      'or respace them (tree reindex --respace)',
    { positionLength, maxPositionLength: MAX_POSITION_LENGTH },
  );
