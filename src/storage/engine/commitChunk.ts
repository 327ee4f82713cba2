import { keyString } from '../../dynamodb/keys.js';
import type { TransactionBuilder } from '../../dynamodb/transactionBuilder.js';
import { ConditionFailed, transactWrite } from '../../dynamodb/transactWrite.js';
import type { EngineContext } from './engineContext.js';
import { jobKey, planFence, planJobFinish, type Lease } from './jobRecord.js';

/** The lease was lost: another process holds the job now; this runner must stop writing. */
export class LeaseLost extends Error {
  constructor(jobId: string) {
    super(`the lease on job ${jobId} was taken over`);
    this.name = 'LeaseLost';
  }
}

/**
 * Commits one chunk of a job's work with the fence (the lease is still ours; renewed; `done`
 * added to the progress), or, with `finish`, as the job's last chunk.
 */
export async function commitChunk(
  ctx: EngineContext,
  tx: TransactionBuilder,
  lease: Lease,
  progress: { done?: number; finish?: 'DONE' | 'FAILED' } = {},
): Promise<void> {
  if (progress.finish) planJobFinish(tx, lease, progress.finish, progress.done);
  else planFence(tx, lease, Date.now(), progress.done);
  const keys = tx.keys();
  try {
    await transactWrite(ctx.doc, tx.build());
  } catch (error) {
    const fence = keyString(jobKey(lease.jobId));
    if (error instanceof ConditionFailed && error.failedIndexes.some((i) => keyString(keys[i]!) === fence)) {
      throw new LeaseLost(lease.jobId);
    }
    throw error;
  }
}
