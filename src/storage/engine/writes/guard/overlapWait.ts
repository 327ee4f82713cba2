import { getItem } from '../../../../dynamodb/batchGet.js';
import { sleep } from '../../../../dynamodb/backoff.js';
import { TreeError } from '../../../../errors.js';
import type { TableContext } from '../../core/engineContext.js';
import { jobFromItem, jobKey, type JobRecord } from '../../jobs/jobRecord.js';
import { ClaimedByOther } from '../../jobs/claimSubtree.js';
import { ConditionFailed } from '../../../../dynamodb/conditionFailed.js';
import { otherClaim } from '../../core/claims.js';
import { readStored } from '../../core/reads.js';
import type { StoredNode } from '../../../strategy.js';
import { Replan } from '../../core/replan.js';

/**
 * How long a structural write waits for an overlapping job that makes no progress: longer than a
 * chunk of the job may wait its turn on contended items (transactWrite.ts, CONTENTION_WAIT_MS).
 */
export const OVERLAP_STALL_MS = 6000;
/** How long at most a structural write waits for an overlapping job, progressing or not. */
export const OVERLAP_WAIT_MS = 30_000;

/**
 * Waits for the job to finish, then makes the write re-plan (Replan): for as long as the job
 * makes progress (each chunk it commits renews its lease), up to OVERLAP_WAIT_MS. CONFLICT, with
 * nothing applied, when it made no progress for OVERLAP_STALL_MS (its runner stopped: another
 * process takes it over within 1.5 leases) or is still running after OVERLAP_WAIT_MS.
 */
export async function waitForOverlappingJob(ctx: TableContext, jobId: string, doing: string): Promise<never> {
  const started = Date.now();
  let progress = '';
  let progressed = started;
  const job = await pollJob(ctx, jobId, OVERLAP_WAIT_MS, (found) => {
    const now = JSON.stringify([found?.done, found?.leaseExpiresAt]);
    if (now !== progress) [progress, progressed] = [now, Date.now()];
    return found?.status !== 'RUNNING' || Date.now() - progressed > OVERLAP_STALL_MS;
  });
  if (job !== 'timeout' && job?.status !== 'RUNNING') throw new Replan(`job ${jobId} is done`, true);
  const why =
    job === 'timeout'
      ? `still running after ${OVERLAP_WAIT_MS / 1000} s`
      : `which made no progress for ${OVERLAP_STALL_MS / 1000} s`;
  throw new TreeError(
    'CONFLICT',
    `${doing} overlaps the subtree that job ${jobId} is moving or deleting, ${why}; ` +
      'nothing was applied: try again once the job is done',
    { jobId },
  );
}

/** The first wait between two reads of a job's record; each next one is half as long again. */
const POLL_FIRST_MS = 100;
/** The longest wait between two reads of a job's record. */
const POLL_MAX_MS = 1000;

/**
 * Reads a job's record until `done` holds of it (and answers it), or `ms` passed: first after
 * 100 ms, then less and less often, at most a second apart (a 30 s wait reads it 35 times).
 */
export async function pollJob(
  ctx: TableContext,
  jobId: string,
  ms: number,
  done: (job: JobRecord | undefined) => boolean,
): Promise<JobRecord | undefined | 'timeout'> {
  const deadline = Date.now() + ms;
  for (let wait = POLL_FIRST_MS; ; wait = Math.min(POLL_MAX_MS, wait * 1.5)) {
    const item = await getItem(ctx.doc, ctx.table, jobKey(jobId));
    const job = item ? jobFromItem(item) : undefined;
    if (done(job)) return job;
    if (Date.now() > deadline) return 'timeout';
    await sleep(wait);
  }
}

/**
 * A job's claiming (claimSubtree.ts, startClaiming), or, when it met another job's claim (the job
 * was given up), the wait for that job (then Replan, or CONFLICT).
 */
export async function claimingOrWaiting<T>(ctx: TableContext, claiming: Promise<T>, doing: string): Promise<T> {
  try {
    return await claiming;
  } catch (error) {
    if (error instanceof ClaimedByOther) await waitForOverlappingJob(ctx, error.jobId, doing);
    throw error;
  }
}

/**
 * Commits a write that takes a subtree along (read from edge copies, which carry no claim): when
 * a condition fails, the write reads the subtree's node items, and a node claimed by a job makes
 * it wait for that job (then Replan, or CONFLICT) rather than plan again into the same claim.
 */
export async function committedUnlessClaimed(
  ctx: TableContext,
  nodes: readonly StoredNode[],
  doing: string,
  commit: () => Promise<void>,
): Promise<void> {
  try {
    await commit();
  } catch (error) {
    if (error instanceof ConditionFailed) {
      const stored = await readStored(
        ctx,
        nodes.map((s) => s.node.id),
      );
      const claim = [...stored.values()].map((s) => otherClaim(s)).find((c) => c !== undefined);
      if (claim) await waitForOverlappingJob(ctx, claim, doing);
    }
    throw error;
  }
}
