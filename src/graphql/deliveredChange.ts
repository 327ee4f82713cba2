import type { LiveChange } from '../live/treeChanges.js';
import { isDeepStrictEqual } from 'node:util';
import { changeIdOf, type TreeNode } from '../storage/treeStore.js';
import type { TreeChange } from './treeChange.type.js';

/** A change as a client gets it (live or in history): its fields, and the record its object fields come from. */
export type Delivered = TreeChange & { live: LiveChange };

/**
 * A change's fields for a caller who may read the nodes `canRead` says (by their chains: their
 * ancestors' ids, root first, then their own): where the node is after the change only when
 * `visible`; where it was and what it was before only when the caller may read it where it was;
 * its id in a tree where the caller may read it (a move between trees is recorded in both, and
 * the copy in the node's history is the record of the tree it left).
 */
export function deliveredChange(change: LiveChange, canRead: (chain: readonly string[]) => boolean): Delivered {
  const { record, kind, cursor, visible } = change;
  const wasAt = record.from ? [...record.from.path, record.nodeId] : undefined;
  const readBefore = canRead(
    wasAt ?? (record.nodeId === record.rootId ? [record.rootId] : [record.rootId, record.nodeId]),
  );
  const before = record.prior && readBefore ? record.prior : null;
  // Where the caller may read the node in a tree's log: the twin's tree, when only there.
  const readIn = (rootId: string) =>
    [record.from, record.to].some(
      (place) => place && (place.path[0] ?? record.nodeId) === rootId && canRead([...place.path, record.nodeId]),
    );
  const twin = record.other && !readIn(record.rootId) && readIn(record.other.rootId) ? record.other : record;
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
