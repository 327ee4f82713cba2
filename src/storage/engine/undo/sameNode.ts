import type { StoredNode } from '../../strategy.js';
import type { ChangeRecord, TreeNode } from '../../treeStore.js';

type Identity = Pick<TreeNode, 'createdAt' | 'incarnation'>;

/**
 * Pure. Whether two snapshots are of the same node, not merely of the same id: an id can be used
 * again once its node is deleted, and versions then restart at 1. The same life of an id has the
 * same incarnation (items.ts newIncarnation) and creation time; nodes written before stamps have
 * no incarnation, and a node made since always has one.
 */
export const sameNode = (a: Identity, b: Identity): boolean =>
  a.createdAt === b.createdAt && (a.incarnation ?? null) === (b.incarnation ?? null);

/**
 * Pure. Whether `nodes` (a subtree, its root first, as a write reads it) is exactly the subtree a
 * create, a copy or a restore made: every node made by it (its stamp, shared by the nodes of one
 * write) and as many as it made, so that nothing was added below since, nor taken away. A change
 * recorded before stamps only knows its root's children count.
 */
export function madeByChange(nodes: readonly StoredNode[], record: ChangeRecord): boolean {
  const made = record.node!;
  if (made.incarnation == null) return nodes[0]!.node.childCount === made.childCount;
  return (
    nodes.every((s) => s.node.incarnation === made.incarnation) &&
    (record.count === undefined || nodes.length === record.count)
  );
}
