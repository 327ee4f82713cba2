import type { ChangePlace, ChangeRecord } from '../storage/treeStore.js';

/**
 * Pure. What one subscriber sees of a tree's changes: the subtree of its watched node, to
 * `maxDepth` levels below it. Each change records where its node was and is (its ancestors'
 * ids), so the subscriber tells from the record alone whether the change is in its window,
 * whatever happened since.
 */
export interface Watch {
  /** The watched node. */
  nodeId: string;
  /** Levels below the watched node (0: the node alone); null: all. */
  maxDepth: number | null;
  /** The watched node's ancestors' ids, root first: its tree is the log read. */
  path: readonly string[];
}

/** The kinds a subscriber receives: a move is seen as it crosses the subscriber's window. */
export type LiveKind =
  | 'CREATED'
  | 'UPDATED'
  | 'MOVED'
  | 'REORDERED'
  | 'DELETED'
  | 'RESTORED'
  | 'COPIED'
  | 'MOVED_IN'
  | 'MOVED_OUT'
  | 'JOB_PROGRESS'
  | 'JOB_DONE';

/** What a change means to one subscriber. */
export interface Seen {
  /** The event to deliver; none when the change is outside the window. */
  kind?: LiveKind;
  /** The watch after the change (the watched node, or an ancestor, moved). */
  watch: Watch;
  /** The watched node is gone (deleted with an ancestor, or itself): the subscription ends. */
  ended?: boolean;
}

/** The tree a watch reads: its root. */
export const treeOf = (watch: Watch): string => watch.path[0] ?? watch.nodeId;

/** Whether a node at `place` (its ancestors) is in the window; its id when it is the watched node. */
export function inWindow(watch: Watch, nodeId: string, place: ChangePlace | undefined): boolean {
  if (nodeId === watch.nodeId) return true;
  if (!place) return false;
  const at = place.path.indexOf(watch.nodeId);
  if (at < 0) return false;
  return watch.maxDepth === null || place.path.length - at <= watch.maxDepth;
}

/** Whether the change's node is the watched node or one of its ancestors. */
const aboveOrAt = (watch: Watch, nodeId: string): boolean => nodeId === watch.nodeId || watch.path.includes(nodeId);

/** What change `record` means to a subscriber with `watch`. */
export function seenBy(watch: Watch, record: ChangeRecord): Seen {
  const { nodeId, from, to } = record;
  switch (record.kind) {
    case 'CREATED':
    case 'RESTORED':
    case 'COPIED':
    case 'UPDATED':
      return { watch, ...(inWindow(watch, nodeId, to) ? { kind: record.kind } : {}) };
    case 'DELETED':
      if (aboveOrAt(watch, nodeId)) return { watch, kind: 'DELETED', ended: true };
      return { watch, ...(inWindow(watch, nodeId, from) ? { kind: 'DELETED' } : {}) };
    case 'JOB_PROGRESS':
    case 'JOB_DONE':
      return {
        watch,
        ...(aboveOrAt(watch, nodeId) || inWindow(watch, nodeId, to ?? from) ? { kind: record.kind } : {}),
      };
    case 'MOVED':
      return seenMove(watch, record);
  }
}

function seenMove(watch: Watch, record: ChangeRecord): Seen {
  const { nodeId, from, to } = record;
  if (aboveOrAt(watch, nodeId)) {
    // The watched subtree moved whole: its window is the same nodes; the watch follows it.
    const below = nodeId === watch.nodeId ? [] : watch.path.slice(watch.path.indexOf(nodeId) + 1);
    const moved = { ...watch, path: [...(to?.path ?? []), ...(nodeId === watch.nodeId ? [] : [nodeId]), ...below] };
    if (nodeId !== watch.nodeId) return { watch: moved };
    return { watch: moved, kind: from?.parentId === to?.parentId ? 'REORDERED' : 'MOVED' };
  }
  const wasIn = inWindow(watch, nodeId, from);
  const isIn = inWindow(watch, nodeId, to);
  if (wasIn && isIn) return { watch, kind: from?.parentId === to?.parentId ? 'REORDERED' : 'MOVED' };
  if (isIn) return { watch, kind: 'MOVED_IN' };
  if (wasIn) return { watch, kind: 'MOVED_OUT' };
  return { watch };
}
