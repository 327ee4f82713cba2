import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { writeAlone } from '../../../dynamodb/writeAlone.js';
import type { TableContext } from '../core/engineContext.js';
import { OPEN_JOBS_KEY, openSummaryOf, PROJECTION } from '../core/openJobs.js';
import { readSummaryItem } from '../core/reads.js';

/**
 * One reindex at a time: the summary of the open jobs (openJobs.ts) names the one that runs
 * (`reindex`, since `reindexSince`) and says which strategy's projection the table holds from
 * its start on (`projection`). Written alone, on conditions, never in a transaction.
 */
export interface ReindexLock {
  jobId: string;
  since: number;
}

/** The reindex the summary names, if one. */
export async function readReindexLock(ctx: TableContext): Promise<ReindexLock | undefined> {
  const { reindex, reindexSince } = openSummaryOf(await readSummaryItem(ctx));
  return reindex !== undefined ? { jobId: reindex, since: reindexSince ?? 0 } : undefined;
}

/** Names reindex `jobId` to `target` in the summary, when none is named: false otherwise. */
export function lockReindex(ctx: TableContext, jobId: string, target: string): Promise<boolean> {
  const set = { reindex: jobId, reindexSince: Date.now(), [PROJECTION]: target };
  const tx = new TransactionBuilder(ctx.table).update(OPEN_JOBS_KEY, { set }, { missing: 'reindex' });
  return writeAlone(ctx.doc, tx.build()[0]);
}

/** Takes reindex `jobId` off the summary, if it is the one named there. */
export async function releaseReindex(ctx: TableContext, jobId: string): Promise<void> {
  const tx = new TransactionBuilder(ctx.table).update(
    OPEN_JOBS_KEY,
    { remove: ['reindex', 'reindexSince'] },
    { equals: ['reindex', jobId] },
  );
  await writeAlone(ctx.doc, tx.build()[0]);
}
