import type { TreeNode } from '../../treeStore.js';

/**
 * Pure. When a change to `node` (as read, the write conditioning on it) happens: this process's
 * clock, but at least 1 ms past the node's last change (its updatedAt, which every change that
 * keeps the node sets to its change's time, or its createdAt). A hybrid clock per node: however
 * the writers' clocks disagree, each change of a node is later than the one before it, so a
 * node's history (keyed by this time) lists its changes in the order they happened to it.
 */
export function changeTime(node: Pick<TreeNode, 'createdAt' | 'updatedAt'> | undefined, now = Date.now()): string {
  if (!node) return new Date(now).toISOString();
  const last = Math.max(Date.parse(node.updatedAt), Date.parse(node.createdAt));
  return new Date(Number.isNaN(last) ? now : Math.max(now, last + 1)).toISOString();
}
