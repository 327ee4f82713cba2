import type { TreeNode } from './operations.ts';

/** Where a row sits in the tree on screen: what moves from the keyboard or by dragging start from. */
export interface TreePlace {
  node: TreeNode;
  /** Its ancestors, root first (empty for a root). */
  path: readonly TreeNode[];
  /** Its neighbours among the siblings loaded so far. */
  prev: TreeNode | null;
  next: TreeNode | null;
}

export const parentOf = (place: TreePlace): TreeNode | null => place.path[place.path.length - 1] ?? null;
