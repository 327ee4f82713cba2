import { batchGetItems } from '../../../dynamodb/batchGet.js';
import { sleep } from '../../../dynamodb/backoff.js';
import { TreeError } from '../../../errors.js';
import type { TableContext } from '../core/engineContext.js';
import { jobFromItem, jobKey, type JobRecord } from './jobRecord.js';
import { Replan } from '../core/replan.js';

/** How long a structural write waits for an open job whose subtree it overlaps. */
export const OVERLAP_WAIT_MS = 3000;

/**
 * Waits for the job to finish, then makes the write re-plan (Replan); CONFLICT, with nothing
 * applied, when it is still running after OVERLAP_WAIT_MS.
 */
export async function waitForOverlappingJob(ctx: TableContext, jobId: string, doing: string): Promise<never> {
  const job = await pollJob(ctx, jobId, OVERLAP_WAIT_MS, (found) => found?.status !== 'RUNNING');
  if (job !== 'timeout') throw new Replan(`job ${jobId} is done`);
  throw new TreeError(
    'CONFLICT',
    `${doing} overlaps the subtree that job ${jobId} is moving, still running after ${OVERLAP_WAIT_MS / 1000} s; ` +
      'nothing was applied: try again once the job is done',
    { jobId },
  );
}

/** Reads a job's record every 100 ms until `done` holds of it (and answers it), or `ms` passed. */
export async function pollJob(
  ctx: TableContext,
  jobId: string,
  ms: number,
  done: (job: JobRecord | undefined) => boolean,
): Promise<JobRecord | undefined | 'timeout'> {
  const deadline = Date.now() + ms;
  for (;;) {
    const item = (await batchGetItems(ctx.doc, ctx.table, [jobKey(jobId)])).values().next().value;
    const job = item ? jobFromItem(item) : undefined;
    if (done(job)) return job;
    if (Date.now() > deadline) return 'timeout';
    await sleep(100);
  }
}
