import { edgeSk } from '../../../dynamodb/keys.js';
import { isTreeError, notFound, TreeError } from '../../../errors.js';
import type { StoredNode } from '../../strategy.js';
import { changeIdOf, type ChangeRecord, type TreeNode } from '../../treeStore.js';
import { readableChange } from '../changes/historyPage.js';
import { readChange, readNodeHistory } from '../changes/changeLog.js';
import { inHistory } from '../changes/changeRecord.js';
import type { EngineContext } from '../core/engineContext.js';
import { readAdjacent } from '../core/reads.js';
import { readVisible } from '../reads/visibleNodes.js';
import { deleteNode } from '../writes/deleteNode.js';
import { moveNode } from '../writes/moveNode.js';
import { updateNode } from '../writes/updateNode.js';
import { restoreNode } from './restoreNode.js';
import { madeByChange, sameNode } from './sameNode.js';

/**
 * Undoes change `seq` of the tree of `rootId`: an update takes the node's name and data back, a
 * move or reorder puts it back under its parent before the sibling that now follows its old
 * position, a create, a copy or a restore deletes the node (with its subtree), a delete restores
 * the subtree that delete kept (restoreNode.ts). Only while the node is as the change left it:
 * the same node (sameNode.ts: not a later one of the same id) at the same version, and for a
 * create, a copy or a restore a subtree of the nodes that change made and nothing else; each
 * checked on the node as the undo's write reads it, which its transaction conditions on.
 * Otherwise CONFLICT (conflictOf). The undo is a change of its own, recorded as any (its record
 * is the answer): undoing it redoes.
 */
export async function undoChange(ctx: EngineContext, rootId: string, seq: number): Promise<ChangeRecord> {
  const record = await readChange(ctx, rootId, seq);
  // A change the caller may not see does not exist for it; the undo's write checks its level.
  const levels = ctx.access ? await ctx.access.levels() : undefined;
  if (!record || !inHistory(record) || (levels && !readableChange(levels, record)))
    throw notFound('change', changeIdOf({ rootId, seq }));
  const committed: ChangeRecord[] = [];
  const recording: EngineContext = {
    ...ctx,
    onChanged: (tenant, records) => {
      committed.push(...(records as ChangeRecord[]));
      ctx.onChanged?.(tenant, records);
    },
  };
  try {
    await reverse(recording, record);
  } catch (error) {
    if (isTreeError(error, 'VERSION_CONFLICT')) throw await conflictOf(ctx, record);
    throw error;
  }
  // The undo's own change: not the progress of a job it ran.
  return committed.find(inHistory)!;
}

/** The write that reverses `record`, on the condition that its node is as the change left it. */
async function reverse(ctx: EngineContext, record: ChangeRecord): Promise<void> {
  const { nodeId } = record;
  const after = record.node;
  const current = (await readVisible(ctx, [nodeId])).get(nodeId);
  if (record.kind === 'DELETED') {
    // Its undo is the restore of what it kept, where it was: unless the node is back already.
    if (current) throw await conflictOf(ctx, record);
    await restoreNode(ctx, nodeId, undefined, { deletedBy: record });
    return;
  }
  if (!after) throw cannotUndo(record);
  const unchanged = (stored: StoredNode) => {
    if (!sameNode(stored.node, after) || stored.node.version !== after.version) throw changed(record, stored);
  };
  if (!current) throw await conflictOf(ctx, record);
  unchanged(current);
  switch (record.kind) {
    case 'UPDATED': {
      const prior = priorOf(record);
      const update = { id: nodeId, name: prior.name, data: prior.data ?? null, expectedVersion: after.version };
      await updateNode(ctx, update, { check: unchanged });
      return;
    }
    case 'MOVED': {
      const prior = priorOf(record);
      const next = await readAdjacent(ctx, prior.parentId, edgeSk(prior.position, nodeId), 'after', nodeId);
      const move = { id: nodeId, newParentId: prior.parentId, before: next?.node.id ?? null };
      await moveNode(ctx, { ...move, expectedVersion: after.version, check: unchanged });
      return;
    }
    case 'CREATED':
    case 'COPIED':
    case 'RESTORED': {
      // Only what the change made: a node added anywhere below since makes it another subtree.
      const made = (nodes: readonly StoredNode[]) => {
        unchanged(nodes[0]!);
        if (!madeByChange(nodes, record)) throw changed(record, nodes[0]!);
      };
      await deleteNode(ctx, { id: nodeId, expectedVersion: after.version }, { check: made });
      return;
    }
    default:
      throw cannotUndo(record);
  }
}

const cannotUndo = (record: ChangeRecord) =>
  new TreeError('BAD_USER_INPUT', `a change of kind ${record.kind} cannot be undone`, {
    field: 'changeId',
    kind: record.kind,
  });

/** The refusal of a write's check, turned into the undo's CONFLICT (undoChange). */
const changed = (record: ChangeRecord, stored: StoredNode) =>
  new TreeError('VERSION_CONFLICT', `node "${record.nodeId}" is not as the change left it`, {
    currentVersion: stored.node.version,
  });

const priorOf = (record: ChangeRecord): TreeNode => {
  if (!record.prior) throw new TreeError('BAD_USER_INPUT', 'the change does not record what it changed', {});
  return record.prior;
};

/**
 * The refusal of an undo whose node changed after the change: CONFLICT naming the latest change
 * of the node (its id, kind, author and time) when it is in a tree the caller may read; saying
 * the node was deleted when the change to undo is its latest and the node is gone; else only
 * that it changed. So nothing is told of a tree the caller may not read, nor whether the node is
 * there: a node in such a tree gets the answer of a node that is nowhere.
 */
export async function conflictOf(ctx: EngineContext, record: ChangeRecord): Promise<TreeError> {
  const undone = changeIdOf(record);
  const base = { id: record.nodeId, changeId: undone };
  const latest = (await readNodeHistory(ctx, record.nodeId, 1, undefined)).entries[0]?.record;
  const same = (r: ChangeRecord) =>
    changeIdOf(r) === undone || (r.other !== undefined && changeIdOf(r.other) === undone);
  const levels = ctx.access ? await ctx.access.levels() : undefined;
  const readable = (r: ChangeRecord) => !levels || readableChange(levels, r);
  if (latest && same(latest) && record.kind === 'DELETED') {
    const message = `the subtree deleted at "${record.nodeId}" by the change to undo is no longer kept`;
    return new TreeError('CONFLICT', message, base);
  }
  if (latest && same(latest) && !(await seenNow(ctx, record.nodeId)))
    return new TreeError('CONFLICT', `node "${record.nodeId}" was deleted since the change to undo`, base);
  if (!latest || same(latest) || !readable(latest))
    return new TreeError('CONFLICT', `node "${record.nodeId}" changed since the change to undo`, base);
  const by = latest.by === null ? '' : ` by ${latest.by}`;
  return new TreeError(
    'CONFLICT',
    `node "${record.nodeId}" changed since the change to undo: ${latest.kind}${by} at ${latest.at}`,
    { ...base, laterChangeId: changeIdOf(latest), laterKind: latest.kind, by: latest.by, at: latest.at },
  );
}

/** Whether node `id` is there now, where the caller may read it. */
async function seenNow(ctx: EngineContext, id: string): Promise<boolean> {
  const stored = (await readVisible(ctx, [id])).get(id);
  if (!stored || !ctx.access) return stored !== undefined;
  const path = stored.node.path ?? (await ctx.strategy.readChain(ctx, stored)).map((c) => c.node.id);
  return (await ctx.access.levelOn([...path, id])) !== null;
}
