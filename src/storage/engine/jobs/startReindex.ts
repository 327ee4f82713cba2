import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { MAX_CONFLICT_ATTEMPTS, transactWrite } from '../../../dynamodb/transactWrite.js';
import { getItem } from '../../../dynamodb/batchGet.js';
import { TreeError } from '../../../errors.js';
import type { Job } from '../../treeStore.js';
import type { EngineContext } from '../core/engineContext.js';
import { jobFromItem, jobKey, newJob, planJobStart, publicJob } from './jobRecord.js';
import { runStarted, startingLease } from './jobRunner.js';
import { announceJob } from './announceJob.js';
import { lockReindex, readReindexLock, releaseReindex } from './reindexLock.js';

/** A reindex named in the summary with no job record this long after is one whose starter stopped. */
const UNSTARTED_LOCK_MS = 60_000;

/**
 * Starts a reindex to `targetName` (reindexJob.ts), run in the background of this process; or
 * answers the open reindex to the same target (a sweep resumes it once its runner is gone).
 * A reindex to another target while one is open is a CONFLICT. The reindex is named in the
 * summary of the open jobs first (reindexLock.ts), then its job starts.
 */
export async function startReindex(ctx: EngineContext, targetName: string): Promise<Job> {
  if (!ctx.strategies.some((s) => s.name === targetName)) {
    throw new TreeError(
      'BAD_USER_INPUT',
      `unknown strategy "${targetName}"; one of ${ctx.strategies.map((s) => s.name).join(', ')}`,
    );
  }
  for (let attempt = 0; attempt < MAX_CONFLICT_ATTEMPTS; attempt++) {
    const lock = await readReindexLock(ctx);
    if (lock) {
      const record = await getItem(ctx.doc, ctx.table, jobKey(lock.jobId));
      const job = record ? jobFromItem(record) : undefined;
      const stale = job ? job.status !== 'RUNNING' : lock.since < Date.now() - UNSTARTED_LOCK_MS;
      if (stale) {
        await releaseReindex(ctx, lock.jobId);
        continue;
      }
      if (job?.target === targetName) return publicJob(job); // resumed by a sweep once its runner is gone
      throw new TreeError(
        'CONFLICT',
        `a reindex to ${job?.target ?? 'another strategy'} is running (job ${lock.jobId}); wait for it`,
        { jobId: lock.jobId },
      );
    }
    const job = newJob('REINDEX', null, null, { target: targetName });
    if (!(await lockReindex(ctx, job.id, targetName))) continue; // another reindex was named meanwhile
    const lease = startingLease(ctx, job.id);
    const tx = new TransactionBuilder(ctx.table);
    planJobStart(tx, job, lease, Date.now(), await announceJob(ctx));
    try {
      await transactWrite(ctx.doc, tx.build());
    } catch (error) {
      await releaseReindex(ctx, job.id);
      throw error;
    }
    runStarted(ctx, job, lease);
    return publicJob(job);
  }
  throw new TreeError('CONFLICT', 'reindexes kept starting and ending; try again');
}
