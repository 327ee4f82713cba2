import type { LiveChange } from '../live/treeChanges.js';
import { isDeepStrictEqual } from 'node:util';
import { changeIdOf, type TreeNode } from '../storage/treeStore.js';
import type { TreeChange } from './treeChange.type.js';

/** A change as a client gets it (live or in history): its fields, and the record its object fields come from. */
export type Delivered = TreeChange & { live: LiveChange };

/**
 * A change's fields for a caller who may read the trees `canRead` says: where the node is after
 * the change only when `visible`; where it was and what it was before only when the caller may
 * read the tree it was in then; its id in a tree the caller may read (a move between trees is
 * recorded in both, and the copy in the node's history is the record of the tree it left).
 */
export function deliveredChange(change: LiveChange, canRead: (rootId: string) => boolean): Delivered {
  const { record, kind, cursor, visible } = change;
  const readBefore = canRead(record.from?.path[0] ?? record.nodeId);
  const before = record.prior && readBefore ? record.prior : null;
  const twin = record.other && !canRead(record.rootId) && canRead(record.other.rootId) ? record.other : record;
  return {
    live: change,
    cursor,
    id: changeIdOf(twin),
    kind,
    nodeId: record.nodeId,
    oldParentId: readBefore ? (record.from?.parentId ?? null) : null,
    newParentId: visible ? (record.to?.parentId ?? null) : null,
    position: visible ? (record.node?.position ?? null) : null,
    count: record.count ?? null,
    version: visible ? (record.node?.version ?? null) : null,
    oldName: before?.name ?? null,
    oldData: before?.data ?? null,
    oldPosition: before?.position ?? null,
    oldVersion: before?.version ?? null,
    changedFields:
      before && visible && record.kind === 'UPDATED' && record.node ? changedFields(before, record.node) : null,
    at: record.at,
    by: record.by,
  };
}

/** The fields an update changed: its name, then each top-level field of its data, sorted. */
function changedFields(before: TreeNode, after: TreeNode): string[] {
  const was = before.data ?? {};
  const is = after.data ?? {};
  const fields = [...new Set([...Object.keys(was), ...Object.keys(is)])].sort();
  return [
    ...(before.name === after.name ? [] : ['name']),
    ...fields.filter((field) => !isDeepStrictEqual(was[field], is[field])),
  ];
}
