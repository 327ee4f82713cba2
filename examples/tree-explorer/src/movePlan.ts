import type { DropPosition } from './dropPosition.ts';
import type { TreeNode } from './operations.ts';
import { parentOf, type TreePlace } from './treePlace.ts';

/** A move as `reparent` takes it, with what the page needs to show it before the server answers. */
export interface MovePlan {
  node: TreeNode;
  fromParentId: string | null;
  toParentId: string | null;
  before?: string;
  after?: string;
  /** For the messages: "before Tulips", "into Shed", "after Garden". */
  where: string;
  /**
   * The new place is inside the moved subtree: the server refuses it (CYCLE), and the page has no
   * place to show it meanwhile, so nothing changes on screen before the answer.
   */
  intoOwnSubtree: boolean;
}

const within = (place: TreePlace, id: string) =>
  place.node.id === id || place.path.some((ancestor) => ancestor.id === id);

/**
 * Dropping `dragged` at `position` of `target`: before or after it among its siblings, or into
 * it as its last child. null when nothing would change (onto itself, or back where it is; a
 * copy may go right beside the node).
 */
export function planDrop(
  dragged: TreePlace,
  target: TreePlace,
  position: DropPosition,
  copying = false,
): MovePlan | null {
  const node = dragged.node;
  if (node.id === target.node.id) return null;
  const fromParentId = parentOf(dragged)?.id ?? null;
  const intoOwnSubtree = within(target, node.id);
  if (position === 'into') {
    return { node, fromParentId, toParentId: target.node.id, where: `into ${target.node.name}`, intoOwnSubtree };
  }
  const toParentId = parentOf(target)?.id ?? null;
  const sameParent = toParentId === fromParentId;
  if (position === 'before') {
    if (sameParent && dragged.next?.id === target.node.id && !copying) return null;
    return {
      node,
      fromParentId,
      toParentId,
      before: target.node.id,
      where: `before ${target.node.name}`,
      intoOwnSubtree,
    };
  }
  if (sameParent && dragged.prev?.id === target.node.id && !copying) return null;
  return { node, fromParentId, toParentId, after: target.node.id, where: `after ${target.node.name}`, intoOwnSubtree };
}

/** The keyboard's moves (with Alt): the arrow key pressed on the focused item. */
export type MoveKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight';

/**
 * Alt+ArrowUp / Alt+ArrowDown: before the previous / after the next sibling; Alt+ArrowRight:
 * into the previous sibling, as its last child; Alt+ArrowLeft: out of its parent, right after
 * it. A string says why the key does nothing here.
 */
export function planKeyMove(place: TreePlace, key: MoveKey): MovePlan | string {
  const { node, prev, next } = place;
  const parent = parentOf(place);
  const fromParentId = parent?.id ?? null;
  const same = { node, fromParentId, intoOwnSubtree: false };
  switch (key) {
    case 'ArrowUp':
      return prev
        ? { ...same, toParentId: fromParentId, before: prev.id, where: `before ${prev.name}` }
        : `${node.name} is already first.`;
    case 'ArrowDown':
      return next
        ? { ...same, toParentId: fromParentId, after: next.id, where: `after ${next.name}` }
        : `${node.name} is already last.`;
    case 'ArrowRight':
      return prev
        ? { ...same, toParentId: prev.id, where: `into ${prev.name}` }
        : `${node.name} has no previous sibling to move into.`;
    case 'ArrowLeft': {
      if (!parent) return `${node.name} is already a root.`;
      const grandparent = place.path[place.path.length - 2] ?? null;
      return { ...same, toParentId: grandparent?.id ?? null, after: parent.id, where: `after ${parent.name}` };
    }
  }
}
