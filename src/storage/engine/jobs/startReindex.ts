import { keyString } from '../../../dynamodb/keys.js';
import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { ConditionFailed, MAX_CONFLICT_ATTEMPTS, transactWrite } from '../../../dynamodb/transactWrite.js';
import { batchGetItems } from '../../../dynamodb/batchGet.js';
import { TreeError } from '../../../errors.js';
import type { Job } from '../../treeStore.js';
import type { EngineContext } from '../core/engineContext.js';
import { jobFromItem, jobKey, newJob, planJobStart, publicJob } from './jobRecord.js';
import { openEntriesOf } from '../core/openJobs.js';
import { readOpenJobsItem } from '../core/reads.js';
import { runStarted, startingLease } from './jobRunner.js';

/**
 * Starts a reindex to `targetName` (reindexJob.ts), run in the background of this process; or
 * answers the open reindex to the same target (a sweep resumes it once its runner is gone).
 * A reindex to another target while one is open is a CONFLICT.
 */
export async function startReindex(ctx: EngineContext, targetName: string): Promise<Job> {
  if (!ctx.strategies.some((s) => s.name === targetName)) {
    throw new TreeError(
      'BAD_USER_INPUT',
      `unknown strategy "${targetName}"; one of ${ctx.strategies.map((s) => s.name).join(', ')}`,
    );
  }
  for (let attempt = 0; attempt < MAX_CONFLICT_ATTEMPTS; attempt++) {
    const openItem = await readOpenJobsItem(ctx);
    const open = openEntriesOf(openItem).find((e) => e.kind === 'REINDEX');
    if (open) {
      const record = (await batchGetItems(ctx.doc, ctx.table, [jobKey(open.id)])).get(keyString(jobKey(open.id)));
      const job = record ? jobFromItem(record) : undefined;
      if (job?.target === targetName) return publicJob(job); // resumed by a sweep once its runner is gone
      throw new TreeError(
        'CONFLICT',
        `a reindex to ${job?.target ?? 'another strategy'} is running (job ${open.id}); wait for it`,
        { jobId: open.id },
      );
    }
    const job = newJob('REINDEX', null, null, { target: targetName });
    const lease = startingLease(ctx, job.id);
    const tx = new TransactionBuilder(ctx.table);
    planJobStart(tx, job, lease, Date.now(), { tenant: ctx.tenant, openRev: Number(openItem?.rev ?? 0) });
    try {
      await transactWrite(ctx.doc, tx.build());
    } catch (error) {
      if (error instanceof ConditionFailed) continue; // a job opened or closed meanwhile
      throw error;
    }
    runStarted(ctx, job, lease);
    return publicJob(job);
  }
  throw new TreeError('CONFLICT', 'the list of open jobs kept changing; try again');
}
