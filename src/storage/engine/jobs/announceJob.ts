import { sleep } from '../../../dynamodb/backoff.js';
import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { writeAlone } from '../../../dynamodb/writeAlone.js';
import type { EngineContext } from '../core/engineContext.js';
import {
  ACTIVE_MARGIN_MS,
  ACTIVE_SPAN_MS,
  ANNOUNCE_WAIT_MS,
  CLOCK_SKEW_MS,
  OPEN_JOBS_KEY,
  openJobsOf,
  type OpenJobs,
} from '../core/openJobs.js';
import { tenantKey, type Announced } from './jobRecord.js';
import { readSummaryItem } from '../core/reads.js';

/**
 * Before a job's first transaction: lists a tenant among those with open jobs (TENANTS, for
 * every process's sweep), and makes sure that reads look for the job's entry (the summary's
 * `activeUntil`, openJobs.ts), waiting ANNOUNCE_WAIT_MS when reads may have found it inactive.
 * `open`: the open jobs as the starter read them (the summary is read here without). Both
 * writes go alone, in no transaction: jobs starting together meet on no transaction's item.
 */
export async function announceJob(ctx: EngineContext, open?: OpenJobs): Promise<Announced> {
  const now = Date.now();
  const summary = open ?? openJobsOf(await readSummaryItem(ctx));
  const writes: Array<Promise<void>> = [listTenant(ctx)];
  if (summary.activeUntil < now + ACTIVE_MARGIN_MS) writes.push(activate(ctx, now));
  await Promise.all(writes);
  if (summary.activeUntil < now + CLOCK_SKEW_MS) await sleep(ANNOUNCE_WAIT_MS);
  return {} as Announced;
}

/** When this process last pushed the summary of a table's (and tenant's) open jobs ahead. */
const pushedAt = new Map<string, number>();

/**
 * Keeps the summary active while a job runs, however long: a runner pushes it ahead when it
 * starts and, with its chunks, every KEEP_ACTIVE_EVERY_MS at most (a quarter of ACTIVE_SPAN_MS).
 */
export async function keepActive(ctx: EngineContext): Promise<void> {
  const now = Date.now();
  if (now - (pushedAt.get(summaryOf(ctx)) ?? 0) >= KEEP_ACTIVE_EVERY_MS) await activate(ctx, now);
}

const KEEP_ACTIVE_EVERY_MS = ACTIVE_SPAN_MS / 4;
const summaryOf = (ctx: EngineContext): string => `${ctx.table}\u0000${ctx.tenant ?? ''}`;

/** Pushes the summary's `activeUntil` ACTIVE_SPAN_MS ahead of `now` (never back). */
async function activate(ctx: EngineContext, now: number): Promise<void> {
  const until = now + ACTIVE_SPAN_MS;
  await alone(ctx, (tx) =>
    tx.update(OPEN_JOBS_KEY, { set: { activeUntil: until } }, { missingOrBelow: ['activeUntil', until] }),
  );
  pushedAt.set(summaryOf(ctx), now);
}

/**
 * Lists a tenant other than the default one among those with open jobs (TENANTS), since now:
 * before a job's first transaction, and again when a process starts running it, so that the
 * sweep, which takes a tenant off the list once it has no open job and was listed a while ago,
 * keeps finding the job.
 */
export async function listTenant(ctx: EngineContext): Promise<void> {
  const { tenant } = ctx;
  if (tenant !== null) await alone(ctx, (tx) => tx.put({ ...tenantKey(tenant), since: Date.now() }));
}

/** One write, alone (writeAlone.ts); its condition failing is no error. */
async function alone(ctx: EngineContext, plan: (tx: TransactionBuilder) => void): Promise<void> {
  const tx = new TransactionBuilder(ctx.table);
  plan(tx);
  await writeAlone(ctx.doc, tx.build()[0]);
}
