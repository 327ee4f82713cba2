import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import type { StoredNode } from '../../strategy.js';
import type { EngineContext } from '../core/engineContext.js';
import type { JobRecord, Lease } from './jobRecord.js';
import { commitChunk, jobChange, passWhileChanging } from './commitChunk.js';
import { keyOfIn, placeOf, planProjectionDelete, subtreePlaces } from '../core/projectionPlans.js';
import { readStored } from '../core/reads.js';
import { planDeleteClaimed, planPathKeys } from '../core/writePlans.js';
import { claimSubtree } from './claimSubtree.js';

/**
 * Deletes a subtree too big for one transaction, which the job claimed whole before its
 * accepting transaction took the root out of the tree (deleteNode.ts). Run under the job's lease
 * by the process that started it, or by any process that took it over; every transaction is
 * fenced by the lease (commitChunk), and every step is idempotent, so a run may stop anywhere
 * and start again:
 *
 * 1. Walk the subtree from the root, level by level (claimSubtree.ts: the claimed subtree is
 *    closed, so the walk writes nothing; a job recorded by an earlier version, whose nodes carry
 *    no claim, claims them here).
 * 2. Delete the nodes bottom-up, children before parents, each on the condition that the job
 *    still claims it, so no orphan exists at any instant.
 * 3. The root goes last, in the transaction that marks the job DONE.
 */
export async function runDeleteJob(ctx: EngineContext, job: JobRecord, lease: Lease): Promise<void> {
  // The subtree changed while it was read: read it again.
  await passWhileChanging(job.id, () => deleteClaimedSubtree(ctx, job, lease));
}

async function deleteClaimedSubtree(ctx: EngineContext, job: JobRecord, lease: Lease): Promise<void> {
  const rootId = job.nodeId!;
  const root = (await readStored(ctx, [rootId])).get(rootId);
  if (!root || root.deleting !== job.id) {
    // Finished already: only the record's status is left.
    return commitChunk(ctx, new TransactionBuilder(ctx.table), lease, { finish: 'DONE' });
  }
  const levels = await claimSubtree(ctx, lease, root);
  const placed = new Map(
    subtreePlaces(root, placeOf(ctx.strategy, root), levels.slice(1), keyOfIn(ctx)).map((p) => [p.stored.node.id, p]),
  );
  const deleteActions = (tx: TransactionBuilder, stored: StoredNode) => {
    planDeleteClaimed(tx, { nodes: [stored], jobId: job.id, rootId });
    planProjectionDelete(tx, ctx.strategy, [placed.get(stored.node.id)!]);
    // The root's path key went when the job detached it (a sibling may have taken it since).
    if (stored.node.id !== rootId) planPathKeys(tx, ctx, stored.node, null);
  };
  // The subtree is claimed whole: the first deletion records its size, unless a runner before
  // this one did (it then deleted some of it already).
  let record: Record<string, unknown> = job.total === null ? { total: placed.size } : {};
  const commit = async (tx: TransactionBuilder, done: number, finish?: 'DONE') => {
    const change = jobChange(job, finish ? 'JOB_DONE' : 'JOB_PROGRESS');
    await commitChunk(ctx, tx, lease, { done, record, ...(finish ? { finish } : {}), ...(change ? { change } : {}) });
    record = {};
  };
  // Fills each transaction with as many nodes (and their projection items) as it holds.
  // One action is the fence on the job record, one the chunk's change record (jobChange).
  const chunk = ctx.transactionItems - (jobChange(job, 'JOB_PROGRESS') ? 2 : 1);
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
