import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { notFound, TreeError } from '../../../errors.js';
import type { StoredNode } from '../../strategy.js';
import type { DeleteNodeArgs, DeleteResult } from '../../treeStore.js';
import { checkId } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import {
  checkParent,
  checkVersion,
  copiesIn,
  expectedParent,
  readNodeTree,
  settledPlace,
  type NodeTree,
} from './guardedPlace.js';
import { draft, holdsRecords, recorded, withRecords } from '../changes/recordChanges.js';
import type { ChangeDraft } from '../changes/changeRecord.js';
import { deletedItems } from '../changes/deletedSubtree.js';
import { putAll, transactWrite } from '../../../dynamodb/transactWrite.js';
import { live } from '../core/items.js';
import { newJob, planJobAccept, publicJob, type JobRecord, type Lease } from '../jobs/jobRecord.js';
import { NO_OPEN_JOBS, overlappingMove, type OpenJobs } from '../core/openJobs.js';
import { announceJob } from '../jobs/announceJob.js';
import { acceptingLease, newLease, runLeased } from '../jobs/jobRunner.js';
import { forgetClaiming, startClaiming } from '../jobs/claimSubtree.js';
import { otherClaim, planNodeUnclaimed } from '../core/claims.js';
import { readVisible, type ReadScope } from '../reads/liveNodes.js';
import { claimingOrWaiting, committedUnlessClaimed, pollJob, waitForOverlappingJob } from './overlapWait.js';
import { placeOf, planProjectionDelete, subtreePlaces } from '../core/projectionPlans.js';
import { readStored, readSubtreeWithin } from '../core/reads.js';
import { replanning } from '../core/replan.js';
import { planDeleteSubtree, planDetachForDelete } from '../core/writePlans.js';

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
    const scope: ReadScope = {};
    const root = live(await readVisible(ctx, [args.id], scope), args.id);
    const open = scope.open ?? NO_OPEN_JOBS;
    checkVersion(root, args.expectedVersion);
    checkParent(root, expectedParentId);
    const overlap = overlappingMove(open, args.id, settledPlace(ctx, open, root))?.id ?? otherClaim(root);
    if (overlap) await waitForOverlappingJob(ctx, overlap, `deleting "${args.id}"`);
    const tree = await readNodeTree(ctx, root, open);
    const parentId = root.node.parentId;
    // Each node deleted takes at least two items (its node and its edge).
    const [parent, levels] = await Promise.all([
      parentId === null ? null : readStored(ctx, [parentId]).then((m) => m.get(parentId) ?? null),
      readSubtreeWithin(ctx, root, Math.floor(ctx.transactionItems / 2)),
    ]);
    if (parentId !== null && !parent) throw notFound('parent', parentId);
    if (levels) options.check?.([root, ...levels.flat()]);
    const copies = copiesIn(ctx, open);
    if (levels) {
      const tx = new TransactionBuilder(ctx.table);
      planDeleteSubtree(tx, { root, descendants: levels.flat(), parent, copies });
      planProjectionDelete(tx, ctx.strategy, subtreePlaces(root, placeOf(ctx.strategy, root), levels));
      planNodeUnclaimed(tx, [root, ...levels.flat()]);
      tree.guard(tx);
      // With its record in the tree's change log, and what keeps it to be restored.
      const deletedCount = levels.flat().length + 1;
      const change = deletedChange(root, tree, deletedCount);
      const kept = deletedItems(ctx, { root, descendants: levels.flat(), path: tree.path });
      const keeping = new TransactionBuilder(ctx.table);
      for (const item of [...kept.packs, ...kept.entry]) keeping.put(item);
      if (holdsRecords(ctx, tx, [change], keeping)) {
        for (const item of [...kept.packs, ...kept.entry]) tx.put(item);
        await committedUnlessClaimed(ctx, levels.flat(), `deleting "${args.id}"`, () =>
          recorded(ctx, [change], (planRecords) => transactWrite(ctx.doc, withRecords(tx, planRecords).build())),
        );
        return { deletedCount };
      }
    }
    return startDeleteJob(ctx, { root, parent, open, tree, check: options.check });
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
  about: { root: StoredNode; parent: StoredNode | null; open: OpenJobs; tree: NodeTree; check?: SubtreeCheck },
): Promise<{ job: JobRecord; lease: Lease }> {
  const { root, parent } = about;
  // Where the subtree was: its job's progress is told in that tree's change log.
  const job = newJob('DELETE', root.node.id, null, { from: about.tree.path });
  const lease = newLease(ctx, job.id);
  const announced = await announceJob(ctx, about.open);
  const doing = `deleting "${root.node.id}"`;
  const levels = await claimingOrWaiting(ctx, startClaiming(ctx, { job, lease, root, announced }), doing);
  const total = levels.flat().length;
  try {
    // The subtree kept to be restored: its entry with the detach, and its nodes too when they
    // are one pack; more packs before it.
    const descendants = levels.flat().filter((s) => s.node.id !== root.node.id);
    about.check?.([root, ...descendants]);
    const kept = deletedItems(ctx, { root, descendants, path: about.tree.path });
    if (kept.packs.length > 1) await putAll(ctx.doc, ctx.table, kept.packs);
    const detach = new TransactionBuilder(ctx.table);
    for (const item of [...(kept.packs.length > 1 ? [] : kept.packs), ...kept.entry]) detach.put(item);
    planDetachForDelete(detach, { root, parent, jobId: job.id, copies: copiesIn(ctx, about.open) });
    planNodeUnclaimed(detach, [root], job.id);
    planJobAccept(detach, acceptingLease(ctx, lease), Date.now(), job, { total });
    about.tree.guard(detach);
    const change = deletedChange(root, about.tree, total, { ...job, total });
    await recorded(ctx, [change], (planRecords) => transactWrite(ctx.doc, withRecords(detach, planRecords).build()));
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
