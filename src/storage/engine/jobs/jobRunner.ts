/**
 * Runs jobs: by the process that started one (under the lease it took with the job's first
 * transaction), or by any live process whose sweep finds a running job with an expired lease.
 * Every chunk a job commits goes through commitChunk, fenced by the lease.
 */
import { DAY_MS } from '../../../durations.js';
import { randomUUID } from 'node:crypto';
import { getItem } from '../../../dynamodb/batchGet.js';
import {
  JOB_SK_PREFIX,
  LEGACY_DELETE_SK_PREFIX,
  sortKeyOf,
  TENANT_PATTERN,
  TENANTS_PK,
  type Item,
} from '../../../dynamodb/keys.js';
import { writeAlone } from '../../../dynamodb/writeAlone.js';
import { keyQuery } from '../../../dynamodb/keyQuery.js';
import { queryItems } from '../../../dynamodb/query.js';
import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { transactWrite } from '../../../dynamodb/transactWrite.js';
import { ConditionFailed } from '../../../dynamodb/conditionFailed.js';
import type { JobSweeper } from '../../treeStore.js';
import { commitChunk, LeaseLost } from './commitChunk.js';
import { runMoveJob } from './moveJob.js';
import { runDeleteJob } from './deleteJob.js';
import { runReindexJob } from './reindexJob.js';
import { runImportJob } from './importJob.js';
import { abandonClaiming } from './claimSubtree.js';
import type { EngineContext } from '../core/engineContext.js';
import {
  jobFromItem,
  jobKey,
  legacyDeleteOf,
  listedTenantOf,
  planJobStart,
  planGiveUpLease,
  planTakeOver,
  tenantKey,
  type JobRecord,
  type Lease,
} from './jobRecord.js';
import { readAllOpenJobs } from '../core/reads.js';
import { openJobsQuery } from '../core/readPlans.js';
import { announceJob, keepActive, listTenant } from './announceJob.js';

/**
 * Runs a job to its end under `lease`. A failure is logged and the lease given up, so that a
 * sweep (of this or any process) takes the job over; it never reaches the caller, for whom the
 * job's first transaction already committed the change.
 */
export async function runLeased(ctx: EngineContext, job: JobRecord, lease: Lease): Promise<boolean> {
  const about = { id: job.id, kind: job.kind, nodeId: job.nodeId };
  ctx.onJob?.({ event: 'started', job: about });
  try {
    await Promise.all([listTenant(ctx), keepActive(ctx)]);
    if (job.claiming) await abandonClaiming(ctx, job, lease);
    else if (job.kind === 'DELETE') await runDeleteJob(ctx, job, lease);
    else if (job.kind === 'MOVE') await runMoveJob(ctx, job, lease);
    else if (job.kind === 'REINDEX') await runReindexJob(ctx, job, lease);
    else if (job.kind === 'IMPORT') await runImportJob(ctx, job, lease);
    else await commitChunk(ctx, new TransactionBuilder(ctx.table), lease, { finish: 'FAILED' });
    ctx.onJob?.({ event: 'ended', job: about });
    return true;
  } catch (error) {
    if (error instanceof LeaseLost) return false;
    const message = `it will be resumed: ${error instanceof Error ? error.message : String(error)}`;
    if (ctx.onJob) ctx.onJob({ event: 'stopped', job: about, error: message });
    else console.error(`job ${job.id} (${job.kind} of ${job.nodeId}) stopped; ${message}`);
    await giveUpLease(ctx, lease);
    return false;
  }
}

async function giveUpLease(ctx: EngineContext, lease: Lease): Promise<void> {
  const tx = new TransactionBuilder(ctx.table);
  planGiveUpLease(tx, lease);
  await transactWrite(ctx.doc, tx.build()).catch(() => {
    // Lost already, or DynamoDB is away: the lease then expires by itself.
  });
}

export const newLease = (ctx: EngineContext, jobId: string): Lease => ({
  jobId,
  token: randomUUID(),
  durationMs: ctx.jobLeaseMs,
});

/**
 * The lease a job starts with: this process's, when it runs the jobs it starts; otherwise one
 * that has already expired, so that a worker (or a sweep) takes the job up at once.
 */
export const startingLease = (ctx: EngineContext, jobId: string): Lease =>
  ctx.runsJobs ? newLease(ctx, jobId) : { jobId, token: randomUUID(), durationMs: 0 };

/**
 * The lease a claiming job is accepted with (claimSubtree.ts): its starter's, which claimed the
 * subtree, when this process runs jobs; otherwise expired on acceptance (see startingLease).
 */
export const acceptingLease = (ctx: EngineContext, lease: Lease): Lease =>
  ctx.runsJobs ? lease : { ...lease, durationMs: 0 };

/** Runs a job that this process just started, in its background, when this process runs jobs. */
export function runStarted(ctx: EngineContext, job: JobRecord, lease: Lease): void {
  if (ctx.runsJobs) ctx.background(runLeased(ctx, job, lease));
}

/** Every job record, running and finished, in key order (oldest first: ids sort by time). */
export async function readJobs(ctx: EngineContext): Promise<JobRecord[]> {
  const { items } = await queryItems(ctx.doc, keyQuery(ctx.table, openJobsQuery()));
  const legacy = items.filter((item) => sortKeyOf(item).startsWith(LEGACY_DELETE_SK_PREFIX));
  await Promise.all(legacy.map((item) => adoptLegacyDelete(ctx, item)));
  return items.filter((item) => sortKeyOf(item).startsWith(JOB_SK_PREFIX)).map(jobFromItem);
}

/**
 * Earlier versions recorded an open delete as DELETE#<nodeId> with no lease: it becomes a job
 * record with an expired lease, which the next sweep takes over.
 */
async function adoptLegacyDelete(ctx: EngineContext, item: Item): Promise<void> {
  const legacy = legacyDeleteOf(item);
  const id = legacy.jobId;
  const job = {
    id,
    kind: 'DELETE',
    status: 'RUNNING',
    done: 0,
    total: null,
    startedAt: legacy.createdAt,
    nodeId: legacy.nodeId,
  } as const;
  const tx = new TransactionBuilder(ctx.table);
  const lease = { jobId: id, token: randomUUID(), durationMs: 0 };
  planJobStart(tx, job, lease, 0, await announceJob(ctx));
  tx.delete({ pk: legacy.pk, sk: legacy.sk }, { exists: true });
  await transactWrite(ctx.doc, tx.build()).catch((error: unknown) => {
    if (!(error instanceof ConditionFailed)) throw error;
  });
}

/** How long a finished job stays readable through job(id) and jobs. */
const FINISHED_JOB_RETENTION_MS = DAY_MS;

async function forget(ctx: EngineContext, job: JobRecord): Promise<void> {
  const tx = new TransactionBuilder(ctx.table).delete(jobKey(job.id), { equals: ['status', job.status] });
  await transactWrite(ctx.doc, tx.build()).catch(() => {});
}

/**
 * Takes over and runs, one after the other, the running jobs whose lease expired, and forgets
 * the jobs finished more than a day ago.
 */
export async function sweepJobs(ctx: EngineContext): Promise<number> {
  let ran = 0;
  for (const job of await readJobs(ctx)) {
    if (job.status !== 'RUNNING') {
      if (Date.parse(job.startedAt) < Date.now() - FINISHED_JOB_RETENTION_MS) await forget(ctx, job);
      continue;
    }
    if (await takeOver(ctx, job)) ran++;
  }
  return ran;
}

/**
 * Takes a running job over when its lease has expired (or it started with none: JOB_RUNNER=worker)
 * and runs it to its end; false when it is not running, or another process holds or took it.
 */
async function takeOver(ctx: EngineContext, job: JobRecord): Promise<boolean> {
  if (job.status !== 'RUNNING' || job.leaseExpiresAt > Date.now()) return false;
  const lease = newLease(ctx, job.id);
  const tx = new TransactionBuilder(ctx.table);
  planTakeOver(tx, job, lease, Date.now());
  try {
    await transactWrite(ctx.doc, tx.build());
  } catch (error) {
    if (error instanceof ConditionFailed) return false; // another process took it first
    throw error;
  }
  await runLeased(ctx, job, lease);
  return true;
}

/** Takes up one job by id (a worker told of it by the table's stream): see takeOver. */
export async function takeUpJob(ctx: EngineContext, jobId: string): Promise<boolean> {
  const item = await getItem(ctx.doc, ctx.table, jobKey(jobId));
  return item ? takeOver(ctx, jobFromItem(item)) : false;
}

/**
 * How long a tenant stays listed at least after a job of its own listed it (announceJob.ts): a
 * job that starts lists it before its first transaction, and again when it runs.
 */
const TENANT_LISTED_MS = 5_000;

/**
 * Sweeps the default tenant's jobs, then those of every tenant listed with open jobs (through
 * `tenantContext`, its own keys), and takes off the list a tenant whose jobs are all finished:
 * one listed for more than TENANT_LISTED_MS, on the condition that no job listed it again since
 * it was read.
 */
export async function sweepTenants(
  ctx: EngineContext,
  tenantContext: (tenant: string) => EngineContext,
): Promise<number> {
  const [ranOwn, tenants] = await Promise.all([sweepJobs(ctx), listedTenantItems(ctx)]);
  let ran = ranOwn;
  for (const { tenant, since } of tenants) {
    const tenantCtx = tenantContext(tenant);
    ran += await sweepJobs(tenantCtx);
    if (since > Date.now() - TENANT_LISTED_MS || (await readAllOpenJobs(tenantCtx)).count > 0) continue;
    const unlist = new TransactionBuilder(tenantCtx.table).delete(tenantKey(tenant), { equals: ['since', since] });
    await writeAlone(tenantCtx.doc, unlist.build()[0]);
  }
  return ran;
}

/** The tenants listed with open jobs (TENANTS), and since when, in one Query. */
async function listedTenantItems(ctx: EngineContext): Promise<Array<{ tenant: string; since: number }>> {
  const { items } = await queryItems(ctx.doc, keyQuery(ctx.table, { pk: TENANTS_PK }));
  return items.map(listedTenantOf).filter(({ tenant }) => TENANT_PATTERN.test(tenant));
}

/** The tenants listed with open jobs (TENANTS), in one Query. */
export async function listedTenants(ctx: EngineContext): Promise<string[]> {
  return (await listedTenantItems(ctx)).map(({ tenant }) => tenant);
}

/**
 * A sweep now, then every half lease (skipped while one is still running a job), until stopped.
 * `stop` waits for the sweep in progress, and so for a job it is running.
 */
export function startSweeper(ctx: EngineContext, tenantContext: (tenant: string) => EngineContext): JobSweeper {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  let stopped = false;
  const sweep = () => {
    if (busy || stopped) return;
    busy = true;
    running = sweepTenants(ctx, tenantContext)
      .catch((error: unknown) => console.error('job sweep failed; the next one retries:', error))
      .finally(() => (busy = false));
  };
  sweep();
  const timer = setInterval(sweep, Math.max(50, ctx.jobLeaseMs / 2));
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
