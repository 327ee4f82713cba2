import { keyQuery } from '../../dynamodb/keyQuery.js';
import { queryItems } from '../../dynamodb/query.js';
import { TransactionBuilder } from '../../dynamodb/transactionBuilder.js';
import { ConditionFailed, transactWrite, TRANSACTION_LIMIT } from '../../dynamodb/transactWrite.js';
import { TreeError } from '../../errors.js';
import type { StoredNode } from '../strategy.js';
import type { DeleteResult } from '../treeStore.js';
import type { EngineContext } from './engineContext.js';
import { deleteJobKey } from './items.js';
import { placeOf, planProjectionDelete, subtreePaths } from './projectionPlans.js';
import { openJobsQuery } from './readPlans.js';
import { readChildren, readStored } from './reads.js';
import { planDeleteMarked, planMark } from './writePlans.js';

/**
 * Deletes a subtree too big for one transaction, after planDetachForDelete has taken its root
 * out of the tree and written the job record. Resumable by any process at any point:
 *
 * 1. Mark, level by level from the root down, every child of a marked node. A marked node
 *    accepts no new children (creates and moves guard their parent chain) and cannot be moved
 *    away, so the marked set closes over the subtree; a child that moved away before its mark
 *    fails the mark's condition and is read again.
 * 2. Delete marked nodes bottom-up, children before parents, so no orphan exists at any instant.
 * 3. The root and the job record go last, in one transaction.
 */
const MARK_ATTEMPTS = 6;
const MARK_CHUNK = TRANSACTION_LIMIT;

export async function runDeleteJob(
  ctx: EngineContext,
  rootId: string,
  jobId: string,
): Promise<DeleteResult> {
  const root = (await readStored(ctx, [rootId])).get(rootId);
  if (!root || root.deleting !== jobId) {
    // Finished already (or never started): only the record is left.
    const tx = new TransactionBuilder(ctx.table).delete(deleteJobKey(rootId));
    await transactWrite(ctx.doc, tx.build());
    return { deletedCount: 0 };
  }
  const levels: StoredNode[][] = [[root]];
  for (let frontier = [root]; frontier.length > 0; ) {
    if (levels.length > ctx.maxTreeDepth + 8) throw new Error(`subtree of ${rootId} is deeper than the depth limit allows`);
    frontier = await markChildren(ctx, frontier, jobId);
    if (frontier.length > 0) levels.push(frontier);
  }
  const placed = new Map(
    subtreePaths(root, placeOf(ctx.strategy, root), levels.slice(1)).map((p) => [p.stored.node.id, p]),
  );
  // Fills each transaction with as many nodes (and their projection items) as it holds.
  const deleteActions = (tx: TransactionBuilder, stored: StoredNode) => {
    planDeleteMarked(tx, { nodes: [stored], jobId, rootId });
    planProjectionDelete(tx, ctx.strategy, [placed.get(stored.node.id)!]);
  };
  for (let depth = levels.length - 1; depth >= 0; depth--) {
    let tx = new TransactionBuilder(ctx.table);
    for (const stored of levels[depth] ?? []) {
      const alone = new TransactionBuilder(ctx.table);
      deleteActions(alone, stored);
      if (tx.size + alone.size > TRANSACTION_LIMIT - 1) {
        await transactWrite(ctx.doc, tx.build());
        tx = new TransactionBuilder(ctx.table);
      }
      deleteActions(tx, stored);
    }
    if (depth === 0) tx.delete(deleteJobKey(rootId));
    await transactWrite(ctx.doc, tx.build());
  }
  return { deletedCount: levels.reduce((sum, level) => sum + level.length, 0) };
}

/** Marks the children of the marked `parents`; returns them (already marked ones included). */
async function markChildren(ctx: EngineContext, parents: StoredNode[], jobId: string): Promise<StoredNode[]> {
  for (let attempt = 0; attempt < MARK_ATTEMPTS; attempt++) {
    const edges = (
      await Promise.all(parents.filter((p) => p.node.childCount > 0).map((p) => readChildren(ctx, p.node.id)))
    ).flat();
    const stored = await readStored(ctx, edges.map((e) => e.node.id));
    const children = edges
      .map((edge) => stored.get(edge.node.id))
      .filter((s): s is StoredNode => s !== undefined && s.node.parentId === edgeParent(edges, s));
    const unmarked = children.filter((s) => s.deleting === undefined);
    try {
      for (let i = 0; i < unmarked.length; i += MARK_CHUNK) {
        const tx = new TransactionBuilder(ctx.table);
        planMark(tx, { children: unmarked.slice(i, i + MARK_CHUNK), jobId });
        await transactWrite(ctx.doc, tx.build());
      }
      return children.filter((s) => s.deleting === undefined || s.deleting === jobId);
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
    }
  }
  throw new TreeError('CONFLICT', 'the subtree being deleted kept changing; the delete will resume');
}

const edgeParent = (edges: StoredNode[], s: StoredNode): string | null =>
  edges.find((e) => e.node.id === s.node.id)?.node.parentId ?? null;

/** Resumes every delete a crash interrupted. */
export async function resumeDeleteJobs(ctx: EngineContext): Promise<number> {
  const { items } = await queryItems(ctx.doc, keyQuery(ctx.table, openJobsQuery()));
  for (const job of items) await runDeleteJob(ctx, String(job.nodeId), String(job.jobId));
  return items.length;
}
