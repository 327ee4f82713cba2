import type { StoredNode } from '../../src/storage/strategy.js';
import type { TreeNode } from '../../src/storage/treeStore.js';

/** When every fixture node was created. */
export const T0 = '2026-01-01T00:00:00.000Z';

/** A node for the unit tests of the engine's plans: named after its id, at position a0, version 1. */
export const testNode = (id: string, parentId: string | null, extra: Partial<TreeNode> = {}): TreeNode => ({
  id,
  parentId,
  name: id,
  position: 'a0',
  version: 1,
  childCount: 0,
  data: null,
  createdAt: T0,
  updatedAt: T0,
  ...extra,
});

/** The node as a write reads it: its item at `rev`, not being deleted. */
export const storedNode = (node: TreeNode, rev = 1): StoredNode => ({ node, rev, deleting: undefined });
