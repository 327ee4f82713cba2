import { edgeSk } from '../../../dynamodb/keys.js';
import { isTreeError, notFound, TreeError } from '../../../errors.js';
import { changeIdOf, type ChangeRecord, type TreeNode } from '../../treeStore.js';
import { readChange, readNodeHistory } from '../changes/changeLog.js';
import { inHistory } from '../changes/changeRecord.js';
import type { EngineContext } from '../core/engineContext.js';
import { readAdjacent } from '../core/reads.js';
import { readVisible } from '../reads/liveNodes.js';
import { deleteNode } from '../writes/deleteNode.js';
import { moveNode } from '../writes/moveNode.js';
import { updateNode } from '../writes/updateNode.js';
import { restoreNode } from './restoreNode.js';

/**
 * Undoes change `seq` of the tree of `rootId`: an update takes the node's name and data back, a
 * move or reorder puts it back under its parent before the sibling that now follows its old
 * position, a create, a copy or a restore deletes the node (with its subtree), a delete restores
 * it (restoreNode.ts). Only while the node is as the change left it (its
 * version, and for a create its children): otherwise CONFLICT names the later change. The undo
 * is a change of its own, recorded as any (its record is the answer): undoing it redoes.
 */
export async function undoChange(ctx: EngineContext, rootId: string, seq: number): Promise<ChangeRecord> {
  const record = await readChange(ctx, rootId, seq);
  if (!record || !inHistory(record)) throw notFound('change', changeIdOf({ rootId, seq }));
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
    if (isTreeError(error, 'VERSION_CONFLICT')) throw await changedSince(ctx, record);
    throw error;
  }
  // The undo's own change: not the progress of a job it ran.
  return committed.find(inHistory)!;
}

/** The write that reverses `record`, on the condition that its node is at the version it left. */
async function reverse(ctx: EngineContext, record: ChangeRecord): Promise<void> {
  const { nodeId } = record;
  const after = record.node;
  const current = (await readVisible(ctx, [nodeId])).get(nodeId)?.node;
  if (record.kind === 'DELETED') {
    // Its undo is its restore, where it was: unless the node is back already.
    if (current) throw await changedSince(ctx, record);
    await restoreNode(ctx, nodeId, undefined);
    return;
  }
  if (!current) {
    throw new TreeError('CONFLICT', `node "${nodeId}" was deleted since the change to undo`, {
      id: nodeId,
      changeId: changeIdOf(record),
    });
  }
  if (after && current.version !== after.version) throw await changedSince(ctx, record);
  const expectedVersion = after?.version ?? null;
  switch (record.kind) {
    case 'UPDATED': {
      const prior = priorOf(record);
      await updateNode(ctx, { id: nodeId, name: prior.name, data: prior.data ?? null, expectedVersion });
      return;
    }
    case 'MOVED': {
      const prior = priorOf(record);
      const next = await readAdjacent(ctx, prior.parentId, edgeSk(prior.position, nodeId), 'after', nodeId);
      await moveNode(ctx, { id: nodeId, newParentId: prior.parentId, before: next?.node.id ?? null, expectedVersion });
      return;
    }
    case 'CREATED':
    case 'COPIED':
    case 'RESTORED':
      // Only what the create made: children added since make it another subtree.
      if (current.childCount !== after!.childCount) throw await changedSince(ctx, record);
      await deleteNode(ctx, { id: nodeId, expectedVersion });
      return;
    default:
      throw new TreeError('BAD_USER_INPUT', `a change of kind ${record.kind} cannot be undone`, {
        field: 'changeId',
        kind: record.kind,
      });
  }
}

const priorOf = (record: ChangeRecord): TreeNode => {
  if (!record.prior) throw new TreeError('BAD_USER_INPUT', 'the change does not record what it changed', {});
  return record.prior;
};

/**
 * The refusal of an undo whose node changed after the change: CONFLICT naming the latest change
 * of the node (its id, kind, author and time), or saying the node is gone.
 */
async function changedSince(ctx: EngineContext, record: ChangeRecord): Promise<TreeError> {
  const undone = changeIdOf(record);
  const latest = (await readNodeHistory(ctx, record.nodeId, 1, undefined)).entries[0]?.record;
  const same = (r: ChangeRecord) =>
    changeIdOf(r) === undone || (r.other !== undefined && changeIdOf(r.other) === undone);
  if (!latest || same(latest)) {
    return new TreeError('CONFLICT', `node "${record.nodeId}" changed since the change to undo`, {
      id: record.nodeId,
      changeId: undone,
    });
  }
  const by = latest.by === null ? '' : ` by ${latest.by}`;
  return new TreeError(
    'CONFLICT',
    `node "${record.nodeId}" changed since the change to undo: ${latest.kind}${by} at ${latest.at}`,
    {
      id: record.nodeId,
      changeId: undone,
      laterChangeId: changeIdOf(latest),
      laterKind: latest.kind,
      by: latest.by,
      at: latest.at,
    },
  );
}
