import { edgeSk } from '../../../dynamodb/keys.js';
import { isTreeError, notFound, TreeError } from '../../../errors.js';
import type { ChangeRecord, CreateNodesResult, NewNodeInput, TreeNode } from '../../treeStore.js';
import { checkId } from '../../validation.js';
import {
  planDeletedEntryRemoved,
  readDeletedEntry,
  readDeletedNodes,
  type DeletedEntry,
} from '../changes/deletedSubtree.js';
import type { EngineContext } from '../core/engineContext.js';
import { readAdjacent } from '../core/reads.js';
import { createNodes } from '../writes/createNodes.js';
import { sameNode } from './sameNode.js';

/**
 * restoreNode: the subtree deleted at node `id` comes back whole, with its ids, names, data and
 * sibling order: where it was (before the sibling that now follows its old position), or under
 * `newParentId` (last) when given. Written as a createNodes of its nodes (one transaction when
 * they fit, else an IMPORT job that no read sees before all are there), recorded as RESTORED; its
 * kept entry ends in the same transaction, so it is restored once. NOT_FOUND when no deleted
 * subtree of that id is kept (or it is in a tree the caller may not read), FORBIDDEN when the
 * caller may only read the tree it was deleted from (the restore consumes its entry), besides
 * the write on where it goes; RESTORE_EXPIRED past
 * UNDO_RETENTION_DAYS, NOT_FOUND naming the parent when its old parent is gone and no
 * `newParentId` is given, ALREADY_EXISTS when one of its ids was taken since.
 */
export async function restoreNode(
  ctx: EngineContext,
  id: string,
  newParentId: string | null | undefined,
  options: { deletedBy?: ChangeRecord } = {},
): Promise<CreateNodesResult> {
  checkId(id);
  if (newParentId != null) checkId(newParentId, 'newParentId');
  const entry = await readDeletedEntry(ctx, id);
  const deletedBy = options.deletedBy?.prior;
  if (deletedBy && !(entry && sameNode(entry.node, deletedBy))) {
    // The entry that delete kept is gone (restored, expired) or replaced by a later delete's.
    throw new TreeError('VERSION_CONFLICT', `the subtree deleted at "${id}" by the change is no longer kept`, {
      currentVersion: entry?.node.version ?? 0,
    });
  }
  // The entry is consumed: where it was deleted must be the caller's to write, until the restore commits.
  if (!entry) throw notFound('deleted node', id);
  const keep = ctx.access ? await ctx.access.require([...entry.path, id], 'write', 'deleted node', id) : undefined;
  if (entry.expiresAt * 1000 < Date.now()) {
    throw new TreeError('RESTORE_EXPIRED', `the subtree deleted at "${id}" on ${entry.at} is no longer kept`, {
      id,
      deletedAt: entry.at,
    });
  }
  const nodes = await readDeletedNodes(ctx, entry);
  const home = newParentId === undefined;
  const parentId = home ? entry.node.parentId : newParentId;
  const next = home ? await readAdjacent(ctx, parentId, edgeSk(entry.node.position, id), 'after', id) : null;
  try {
    return await createNodes(
      ctx,
      { parentId, nodes: listOf(nodes, id) },
      {
        as: {
          kind: 'RESTORED',
          ...(next ? { before: next.node.id } : {}),
          planAlso: (tx) => {
            planDeletedEntryRemoved(tx, entry);
            keep?.(tx);
          },
        },
      },
    );
  } catch (error) {
    throw home ? goneHome(error, entry) : error;
  }
}

/** The nodes as a createNodes list: the root on top, each node's children in their old order. */
function listOf(nodes: readonly TreeNode[], rootId: string): NewNodeInput[] {
  const bySiblingOrder = [...nodes].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  // The root first: the answer's first node.
  const rootFirst = [
    ...bySiblingOrder.filter((n) => n.id === rootId),
    ...bySiblingOrder.filter((n) => n.id !== rootId),
  ];
  return rootFirst.map((node) => ({
    id: node.id,
    name: node.name,
    data: node.data ?? null,
    type: node.type ?? null,
    ...(node.id === rootId ? {} : { parentId: node.parentId }),
  }));
}

/** A restore home whose parent is gone says so, and what to do. */
function goneHome(error: unknown, entry: DeletedEntry): unknown {
  const parentId = entry.node.parentId;
  if (!isTreeError(error, 'NOT_FOUND') || parentId === null || error.details?.id !== parentId) return error;
  return new TreeError(
    'NOT_FOUND',
    `parent "${parentId}" of the deleted node "${entry.nodeId}" is gone: restore it first, or give newParentId`,
    { id: parentId },
  );
}
