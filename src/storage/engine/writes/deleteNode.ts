import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { notFound, TreeError } from '../../../errors.js';
import type { StoredNode } from '../../strategy.js';
import type { DeleteNodeArgs, DeleteResult } from '../../treeStore.js';
import { checkId } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { expectedParent, GuardedNode, type NodeTree } from './guard/guardedNode.js';
import { commitWrite } from '../guard/guardedTransaction.js';
import { draft, holdsRecords } from '../changes/recordChanges.js';
import type { ChangeDraft } from '../changes/changeRecord.js';
import { deletedItems } from '../changes/deletedSubtree.js';
import { newJob, planJobAccept, publicJob, type JobRecord, type Lease } from '../jobs/jobRecord.js';
import { announceJob } from '../jobs/announceJob.js';
import { acceptingLease, newLease, runLeased } from '../jobs/jobRunner.js';
import { forgetClaiming, startClaiming } from '../jobs/claimSubtree.js';
import { claimingOrWaiting, committedUnlessClaimed, pollJob } from './guard/overlapWait.js';
import { keyOfIn, placeOf, planProjectionDelete, subtreePlaces } from '../core/projectionPlans.js';
import { readStored, readSubtreeWithin } from '../core/reads.js';
import { replanning } from '../core/replan.js';
import { planDeleteSubtree, planDetachForDelete, planPathKeys } from '../core/writePlans.js';

/**
 * Deletes a node and its subtree: one transaction when it fits; otherwise a job claims the
 * subtree (claims.ts), counting it, and its accepting transaction detaches it (from then on no
 * read returns any of it); this process then runs the job under its lease, outside the
 * re-planning loop: once the detach has committed the delete is applied, whatever happens to
 * the job (any live process finishes it). The subtree is read only as far as it may fit one
 * transaction; the answer's deletedCount is the job's count. No node deleted is claimed by
 * another job.
 */
export async function deleteNode(
  ctx: EngineContext,
  args: DeleteNodeArgs,
  options: { check?: SubtreeCheck } = {},
): Promise<DeleteResult> {
  checkId(args.id);
  const expectedParentId = expectedParent(args.expectedParentId);
  type Started = DeleteResult | { job: JobRecord; lease: Lease };
  const started = await replanning(async (): Promise<Started> => {
    const doing = `deleting "${args.id}"`;
    const read = { id: args.id, expectedVersion: args.expectedVersion, expectedParentId, doing };
    const guard = await GuardedNode.read(ctx, { ...read, overlappingMoves: true, takesAway: true });
    const { stored: root, tree } = guard;
    const parentId = root.node.parentId;
    // Each node deleted takes at least two items (its node and its edge).
    const [parent, levels] = await Promise.all([
      parentId === null ? null : readStored(ctx, [parentId]).then((m) => m.get(parentId) ?? null),
      readSubtreeWithin(ctx, root, Math.floor(ctx.transactionItems / 2)),
    ]);
    if (parentId !== null && !parent) throw notFound('parent', parentId);
    if (levels) options.check?.([root, ...levels.flat()]);
    if (levels) {
      const descendants = levels.flat();
      const tx = guard.over([root, ...descendants]).transaction((plan) => {
        planDeleteSubtree(plan, { root, descendants, parent, copies: guard.copies });
        for (const { node } of [root, ...descendants]) planPathKeys(plan, ctx, node, null);
        planProjectionDelete(
          plan,
          ctx.strategy,
          subtreePlaces(root, placeOf(ctx.strategy, root), levels, keyOfIn(ctx)),
        );
      });
      // With its record in the tree's change log, and what keeps it to be restored.
      const change = deletedChange(root, tree, descendants.length + 1);
      const kept = deletedItems(ctx, { root, descendants, path: tree.path });
      const keeping = new TransactionBuilder(ctx.table);
      for (const item of [...kept.packs, ...kept.entry]) keeping.put(item);
      if (holdsRecords(ctx, tx, [change], keeping)) {
        const withKept = tx.extended((plan) => {
          for (const item of [...kept.packs, ...kept.entry]) plan.put(item);
        });
        await committedUnlessClaimed(ctx, descendants, doing, () => commitWrite(ctx, withKept, { changes: [change] }));
        return { deletedCount: descendants.length + 1 };
      }
    }
    return startDeleteJob(ctx, { guard, parent, check: options.check });
  });
  if (!('lease' in started)) return started;
  // Run here, so that the answer counts the nodes deleted; or counted by the worker.
  if (ctx.runsJobs) await runLeased(ctx, started.job, started.lease);
  const counted = await countedJob(ctx, started.job.id);
  return { deletedCount: counted.total!, job: publicJob(counted) };
}

/**
 * A delete too big for one transaction: the job claims the subtree, counting it, then its
 * accepting transaction detaches the root (planDetachForDelete) and records the count.
 */
async function startDeleteJob(
  ctx: EngineContext,
  about: { guard: GuardedNode; parent: StoredNode | null; check?: SubtreeCheck },
): Promise<{ job: JobRecord; lease: Lease }> {
  const { guard, parent } = about;
  const { stored: root, tree } = guard;
  // Where the subtree was: its job's progress is told in that tree's change log.
  const job = newJob('DELETE', root.node.id, null, { from: tree.path });
  const lease = newLease(ctx, job.id);
  const announced = await announceJob(ctx, guard.open);
  const doing = `deleting "${root.node.id}"`;
  const levels = await claimingOrWaiting(ctx, startClaiming(ctx, { job, lease, root, announced }), doing);
  const total = levels.flat().length;
  try {
    // The subtree kept to be restored: its entry with the detach, and its nodes too when they
    // are one pack; more packs before it.
    const descendants = levels.flat().filter((s) => s.node.id !== root.node.id);
    about.check?.([root, ...descendants]);
    const kept = deletedItems(ctx, { root, descendants, path: tree.path });
    const ahead = kept.packs.length > 1 ? kept.packs : [];
    const detach = guard.over([root], job.id).transaction((plan) => {
      for (const item of [...(ahead.length > 0 ? [] : kept.packs), ...kept.entry]) plan.put(item);
      planDetachForDelete(plan, { root, parent, jobId: job.id, copies: guard.copies });
      planPathKeys(plan, ctx, root.node, null);
      planJobAccept(plan, acceptingLease(ctx, lease), Date.now(), job, { total });
    });
    const change = deletedChange(root, tree, total, { ...job, total });
    await commitWrite(ctx, detach, { changes: [change], ahead });
  } catch (error) {
    await forgetClaiming(ctx, lease, root.node.id);
    throw error;
  }
  return { job: { ...job, total }, lease };
}

/**
 * A caller's check on the subtree a delete reads (its root first), before anything is written: in
 * one transaction, on the nodes whose revs it conditions on; as a job, on the claimed subtree.
 */
export type SubtreeCheck = (nodes: readonly StoredNode[]) => void;

/** The record of a delete: the subtree's root, where it was, how many nodes went, and its job if it runs as one. */
const deletedChange = (root: StoredNode, tree: NodeTree, count: number, job?: JobRecord): ChangeDraft =>
  draft(tree.rootId, {
    kind: 'DELETED',
    nodeId: root.node.id,
    prior: root.node,
    from: { parentId: root.node.parentId, path: tree.path },
    count,
    ...(job ? { job: { id: job.id, kind: job.kind, status: job.status } } : {}),
  });

/** How long at least a delete waits for its job's count when another process runs the job. */
const COUNT_WAIT_MS = 3000;

/**
 * A delete job's record once it has counted its subtree: at once when this process ran it to
 * its end; otherwise (the runner stopped) when the process that takes it over has counted it.
 * The delete is applied either way; past the wait, SERVICE_UNAVAILABLE says so.
 */
async function countedJob(ctx: EngineContext, jobId: string): Promise<JobRecord> {
  const wait = Math.max(COUNT_WAIT_MS, 3 * ctx.jobLeaseMs);
  const job = await pollJob(ctx, jobId, wait, (found) => found?.total != null);
  if (job !== 'timeout' && job) return job;
  throw new TreeError(
    'SERVICE_UNAVAILABLE',
    `the subtree is detached and job ${jobId} is deleting it, but its size is not counted yet; ` +
      `query job(id: "${jobId}") for its progress`,
    { jobId },
  );
}
