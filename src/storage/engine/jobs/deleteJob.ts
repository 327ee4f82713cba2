import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { ConditionFailed } from '../../../dynamodb/transactWrite.js';
import { TreeError } from '../../../errors.js';
import { walkLimit, type StoredNode } from '../../strategy.js';
import type { EngineContext } from '../core/engineContext.js';
import type { JobRecord, Lease } from './jobRecord.js';
import { commitChunk, passWhileChanging } from './commitChunk.js';
import { placeOf, planProjectionDelete, subtreePlaces } from '../core/projectionPlans.js';
import { readChildren, readStored } from '../core/reads.js';
import { planDeleteMarked, planMark } from '../core/writePlans.js';

/**
 * Deletes a subtree too big for one transaction, after planDetachForDelete has taken its root
 * out of the tree and written the job record. Run under the job's lease by the process that
 * started it, or by any process that took it over; every transaction is fenced by the lease
 * (commitChunk), and every step is idempotent, so a run may stop anywhere and start again:
 *
 * 1. Mark, level by level from the root down, every child of a marked node. A marked node
 *    accepts no new children (creates and moves guard their parent chain) and cannot be moved
 *    away, so the marked set closes over the subtree; a child that moved away before its mark
 *    fails the mark's condition and is read again.
 * 2. Delete marked nodes bottom-up, children before parents, so no orphan exists at any instant.
 * 3. The root goes last, in the transaction that marks the job DONE.
 */
const ATTEMPTS = 6;

export async function runDeleteJob(ctx: EngineContext, job: JobRecord, lease: Lease): Promise<void> {
  // The subtree changed while it was read: read it again.
  await passWhileChanging(job.id, () => deleteMarkedSubtree(ctx, job, lease));
}

async function deleteMarkedSubtree(ctx: EngineContext, job: JobRecord, lease: Lease): Promise<void> {
  const rootId = job.nodeId!;
  const root = (await readStored(ctx, [rootId])).get(rootId);
  if (!root || root.deleting !== job.id) {
    // Finished already: only the record's status is left.
    return commitChunk(ctx, new TransactionBuilder(ctx.table), lease, { finish: 'DONE' });
  }
  const levels: StoredNode[][] = [[root]];
  for (let frontier = [root]; frontier.length > 0;) {
    if (levels.length > walkLimit(ctx)) throw new Error(`subtree of ${rootId} is deeper than the depth limit allows`);
    frontier = await markChildren(ctx, frontier, lease);
    if (frontier.length > 0) levels.push(frontier);
  }
  const placed = new Map(
    subtreePlaces(root, placeOf(ctx.strategy, root), levels.slice(1)).map((p) => [p.stored.node.id, p]),
  );
  const deleteActions = (tx: TransactionBuilder, stored: StoredNode) => {
    planDeleteMarked(tx, { nodes: [stored], jobId: job.id, rootId });
    planProjectionDelete(tx, ctx.strategy, [placed.get(stored.node.id)!]);
  };
  // The subtree is marked whole: the first deletion records its size, unless a runner before
  // this one did (it then deleted some of it already).
  let record: Record<string, unknown> = job.total === null ? { total: placed.size } : {};
  const commit = async (tx: TransactionBuilder, done: number, finish?: 'DONE') => {
    await commitChunk(ctx, tx, lease, { done, record, ...(finish ? { finish } : {}) });
    record = {};
  };
  // Fills each transaction with as many nodes (and their projection items) as it holds.
  const chunk = ctx.transactionItems - 1; // one action is the fence on the job record
  for (let depth = levels.length - 1; depth >= 0; depth--) {
    let tx = new TransactionBuilder(ctx.table);
    let nodes = 0;
    for (const stored of levels[depth] ?? []) {
      const alone = new TransactionBuilder(ctx.table);
      deleteActions(alone, stored);
      if (tx.size + alone.size > chunk) {
        await commit(tx, nodes);
        tx = new TransactionBuilder(ctx.table);
        nodes = 0;
      }
      deleteActions(tx, stored);
      nodes++;
    }
    await commit(tx, nodes, depth === 0 ? 'DONE' : undefined);
  }
}

/** Marks the children of the marked `parents`; returns them (already marked ones included). */
async function markChildren(ctx: EngineContext, parents: StoredNode[], lease: Lease): Promise<StoredNode[]> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const edges = (
      await Promise.all(parents.filter((p) => p.node.childCount > 0).map((p) => readChildren(ctx, p.node.id)))
    ).flat();
    const stored = await readStored(
      ctx,
      edges.map((e) => e.node.id),
    );
    const children = edges
      .map((edge) => stored.get(edge.node.id))
      .filter((s): s is StoredNode => s !== undefined && s.node.parentId === edgeParent(edges, s));
    const unmarked = children.filter((s) => s.deleting === undefined);
    try {
      const chunk = ctx.transactionItems - 1; // one action is the fence on the job record
      for (let i = 0; i < unmarked.length; i += chunk) {
        const tx = new TransactionBuilder(ctx.table);
        planMark(tx, { children: unmarked.slice(i, i + chunk), jobId: lease.jobId });
        await commitChunk(ctx, tx, lease);
      }
      return children.filter((s) => s.deleting === undefined || s.deleting === lease.jobId);
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
    }
  }
  throw new TreeError('CONFLICT', `the subtree of job ${lease.jobId} kept changing; the job will resume`);
}

const edgeParent = (edges: StoredNode[], s: StoredNode): string | null =>
  edges.find((e) => e.node.id === s.node.id)?.node.parentId ?? null;
