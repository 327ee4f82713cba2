import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { notFound, TreeError } from '../../../errors.js';
import type { StoredNode } from '../../strategy.js';
import type { DeleteNodeArgs, DeleteResult } from '../../treeStore.js';
import { checkId } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { checkVersion, copiesIn, guardNodeUnclaimed, readNodeTree, settledPlace } from './guardedPlace.js';
import { transactWrite } from '../../../dynamodb/transactWrite.js';
import { live } from '../core/items.js';
import { newJob, planJobStart, publicJob, type JobRecord, type Lease } from '../jobs/jobRecord.js';
import { NO_OPEN_JOBS, overlappingMove } from '../core/openJobs.js';
import { announceJob } from '../jobs/announceJob.js';
import { runLeased, startingLease } from '../jobs/jobRunner.js';
import { readVisible, type ReadScope } from '../reads/liveNodes.js';
import { pollJob, waitForOverlappingJob } from '../jobs/overlapWait.js';
import { keptFields, placeOf, planProjectionDelete, subtreePlaces } from '../core/projectionPlans.js';
import { readStored, readSubtreeWithin } from '../core/reads.js';
import { replanning } from '../core/replan.js';
import { planDeleteSubtree, planDetachForDelete } from '../core/writePlans.js';

/**
 * Deletes a node and its subtree: one transaction when it fits; otherwise one transaction
 * detaches the subtree (from then on no read returns any of it) and records a job, which this
 * process then runs under the job's lease, outside the re-planning loop: once the detach has
 * committed the delete is applied, whatever happens to the job (any live process finishes it).
 * The subtree is read only as far as it may fit one transaction; a job counts it while it marks
 * it (the record's `total`), and the answer's deletedCount is that count.
 */
export async function deleteNode(ctx: EngineContext, args: DeleteNodeArgs): Promise<DeleteResult> {
  checkId(args.id);
  type Started = DeleteResult | { job: JobRecord; lease: Lease };
  const started = await replanning(async (): Promise<Started> => {
    const scope: ReadScope = {};
    const root = live(await readVisible(ctx, [args.id], scope), args.id);
    const open = scope.open ?? NO_OPEN_JOBS;
    checkVersion(root, args.expectedVersion);
    const overlap = overlappingMove(open, args.id, settledPlace(ctx, open, root));
    if (overlap) await waitForOverlappingJob(ctx, overlap.id, `deleting "${args.id}"`);
    const guardTree = await readNodeTree(ctx, root);
    const parentId = root.node.parentId;
    // Each node deleted takes at least two items (its node and its edge).
    const [parent, levels] = await Promise.all([
      parentId === null ? null : readStored(ctx, [parentId]).then((m) => m.get(parentId) ?? null),
      readSubtreeWithin(ctx, root, Math.floor(ctx.transactionItems / 2)),
    ]);
    if (parentId !== null && !parent) throw notFound('parent', parentId);
    const copies = copiesIn(ctx, open);
    if (levels) {
      const tx = new TransactionBuilder(ctx.table);
      planDeleteSubtree(tx, { root, descendants: levels.flat(), parent, copies });
      planProjectionDelete(tx, ctx.strategy, subtreePlaces(root, placeOf(ctx.strategy, root), levels));
      guardNodeUnclaimed(ctx, tx, root);
      guardTree(tx);
      if (tx.size <= ctx.transactionItems) {
        await transactWrite(ctx.doc, tx.build());
        return { deletedCount: levels.flat().length + 1 };
      }
    }
    const job = newJob('DELETE', root.node.id, null);
    const lease = startingLease(ctx, job.id);
    // The job claims the subtree in its tree's claims (claims.ts): the ancestors name the tree.
    const ancestors = await ancestorsOf(ctx, root);
    const announced = await announceJob(ctx, open);
    const detach = new TransactionBuilder(ctx.table);
    planDetachForDelete(detach, { root, parent, jobId: job.id, copies });
    guardNodeUnclaimed(ctx, detach, root, ancestors);
    planJobStart(detach, job, lease, Date.now(), announced, { ...job, from: ancestors });
    guardTree(detach);
    await transactWrite(ctx.doc, detach.build());
    return { job, lease };
  });
  if (!('lease' in started)) return started;
  // Run here, so that the answer counts the nodes deleted; or counted by the worker.
  if (ctx.runsJobs) await runLeased(ctx, started.job, started.lease);
  const counted = await countedJob(ctx, started.job.id);
  return { deletedCount: counted.total!, job: publicJob(counted) };
}

/** The ancestors of a node, root first: its kept path, or else its chain walked. */
async function ancestorsOf(ctx: EngineContext, stored: StoredNode): Promise<string[]> {
  if (keptFields(ctx.strategy).path) return [...placeOf(ctx.strategy, stored).path];
  return (await ctx.strategy.readChain(ctx, stored)).slice(0, -1).map((c) => c.node.id);
}

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
