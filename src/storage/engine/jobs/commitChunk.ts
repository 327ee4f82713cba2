import { sleep } from '../../../dynamodb/backoff.js';
import { keyString } from '../../../dynamodb/keys.js';
import type { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { ConditionFailed } from '../../../dynamodb/conditionFailed.js';
import { TreeError } from '../../../errors.js';
import type { EngineContext } from '../core/engineContext.js';
import { jobKey, planFence, planJobFinish, type JobRecord, type Lease } from './jobRecord.js';
import { draft } from '../changes/recordChanges.js';
import type { ChangeDraft } from '../changes/changeRecord.js';
import { FINISH_GRACE_MS } from '../core/openJobs.js';
import { keepActive } from './announceJob.js';
import { commitWrite, Guard, type GuardedTransaction } from '../guard/guardedTransaction.js';

/** The lease was lost: another process holds the job now; this runner must stop writing. */
export class LeaseLost extends Error {
  constructor(jobId: string) {
    super(`the lease on job ${jobId} was taken over`);
    this.name = 'LeaseLost';
  }
}

/** What a job's chunk commits besides its actions: its progress, or its end. */
interface Progress {
  done?: number;
  record?: Record<string, unknown>;
  finish?: 'DONE' | 'FAILED';
  /** The chunk's record in its tree's change log (a move's or delete's progress: jobChange). */
  change?: ChangeDraft;
}

/**
 * Commits one chunk of a job's work with the fence (the lease is still ours; renewed; `done`
 * added to the progress), or, with `finish`, as the job's last chunk, after the closing grace
 * (openJobs.ts, FINISH_GRACE_MS). `tx`: the chunk's actions, or a transaction guarded already
 * (an import's join, under the guards of its place).
 */
export async function commitChunk(
  ctx: EngineContext,
  tx: TransactionBuilder | GuardedTransaction,
  lease: Lease,
  progress: Progress = {},
): Promise<void> {
  if (progress.finish) await sleep(FINISH_GRACE_MS);
  await keepActive(ctx);
  const fenced = new JobFence(ctx.table, lease, progress).transaction(tx);
  await commitWrite(ctx, fenced, progress.change ? { changes: [progress.change] } : {});
}

/** The guard of a job's chunk: the job's lease, still this runner's, renewed with its progress. */
class JobFence extends Guard {
  constructor(
    table: string,
    private readonly lease: Lease,
    private readonly progress: Progress,
  ) {
    super(table);
  }

  protected planGuards(tx: TransactionBuilder): void {
    const { done, record, finish } = this.progress;
    if (finish) planJobFinish(tx, this.lease, finish, { done, record });
    else planFence(tx, this.lease, Date.now(), done, record);
  }

  /** The fence failed: another process holds the job now (LeaseLost). */
  protected override explain(failed: readonly string[]): Error | undefined {
    return failed.includes(keyString(jobKey(this.lease.jobId))) ? new LeaseLost(this.lease.jobId) : undefined;
  }
}

/**
 * The change record of a move's or delete's chunk: JOB_PROGRESS, or JOB_DONE with its last one,
 * in the tree the subtree went to (a move) or was deleted from; none for other jobs.
 */
export function jobChange(job: JobRecord, kind: 'JOB_PROGRESS' | 'JOB_DONE'): ChangeDraft | undefined {
  const path = job.kind === 'MOVE' ? job.to : job.kind === 'DELETE' ? job.from : undefined;
  if (!path || job.nodeId === null) return undefined;
  return draft(path[0] ?? job.nodeId, {
    kind,
    nodeId: job.nodeId,
    to: { parentId: path.at(-1) ?? null, path },
    job: { id: job.id, kind: job.kind, status: kind === 'JOB_DONE' ? 'DONE' : 'RUNNING' },
  });
}

/** Passes of a job over a subtree that keeps changing, before it gives up for a while. */
const PASSES = 6;

/**
 * Runs a pass of a job again (from its start: every step is idempotent) while a transaction
 * fails because the subtree changed under it; after PASSES, CONFLICT, and the job is released
 * for a sweep to resume later.
 */
export async function passWhileChanging(jobId: string, pass: () => Promise<void>): Promise<void> {
  for (let attempt = 0; attempt < PASSES; attempt++) {
    try {
      return await pass();
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
    }
  }
  throw new TreeError('CONFLICT', `the subtree of job ${jobId} kept changing; the job will resume`);
}
