import type { LiveChange } from '../live/treeChanges.js';
import { changeIdOf } from '../storage/treeStore.js';
import type { TreeChange } from './treeChange.type.js';

/** A change as a client gets it (live or in history): its fields, and the record its object fields come from. */
export type Delivered = TreeChange & { live: LiveChange };

/**
 * A change's fields for a caller who may read the trees `canRead` says: where the node is after
 * the change only when `visible`, what it was before only when the caller may read the tree it
 * was in then.
 */
export function deliveredChange(change: LiveChange, canRead: (rootId: string) => boolean): Delivered {
  const { record, kind, cursor, visible } = change;
  const before = record.prior && canRead(record.from?.path[0] ?? record.nodeId) ? record.prior : null;
  return {
    live: change,
    cursor,
    id: changeIdOf(record),
    kind,
    nodeId: record.nodeId,
    oldParentId: record.from?.parentId ?? null,
    newParentId: visible ? (record.to?.parentId ?? null) : null,
    position: visible ? (record.node?.position ?? null) : null,
    count: record.count ?? null,
    version: visible ? (record.node?.version ?? null) : null,
    oldName: before?.name ?? null,
    oldData: before?.data ?? null,
    oldPosition: before?.position ?? null,
    oldVersion: before?.version ?? null,
    at: record.at,
    by: record.by,
  };
}
