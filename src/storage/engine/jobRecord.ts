import { JOB_SK_PREFIX, JOBS_PK, OPEN_JOBS_SK, type Item, type Key } from '../../dynamodb/keys.js';
import type { Condition, TransactionBuilder } from '../../dynamodb/transactionBuilder.js';
import type { Job, JobKind } from '../treeStore.js';

/**
 * The record of a job (pk JOBS, sk JOB#<id>), and the pure plans of its writes. A running job
 * holds a lease: an owner, a fencing token and an expiry. Every chunk the runner commits carries
 * an update of the record conditioned on the token (the fence), which also renews the lease and
 * counts progress: a runner that lost its lease (paused past the expiry, partitioned) can never
 * commit a chunk after another process took the job over.
 */
export interface JobRecord extends Job {
  /** The fencing token of the lease; null once the job is finished. */
  leaseToken: string | null;
  /** Epoch milliseconds after which any process may take the job over. */
  leaseExpiresAt: number;
}

export const jobKey = (id: string): Key => ({ pk: JOBS_PK, sk: `${JOB_SK_PREFIX}${id}` });

/**
 * One item lists the open jobs (pk JOBS, sk OPEN; an attribute `job:<id>` = { kind, nodeId } per
 * job), written with each job's first and last transaction. A read of nodes by id fetches it in
 * the same BatchGet as the nodes, so that it can hide the nodes of a subtree being deleted at no
 * extra request (liveNodes.ts).
 */
export const OPEN_JOBS_KEY: Key = { pk: JOBS_PK, sk: OPEN_JOBS_SK };
const openEntry = (jobId: string) => `job:${jobId}`;

/** The open jobs an OPEN_JOBS_KEY item lists. */
export function openJobsOf(item: Item | undefined): Array<Pick<Job, 'id' | 'kind' | 'nodeId'>> {
  if (!item) return [];
  return Object.entries(item).flatMap(([name, value]) => {
    if (!name.startsWith('job:') || value === null || typeof value !== 'object') return [];
    const entry = value as { kind?: unknown; nodeId?: unknown };
    return [{ id: name.slice(4), kind: entry.kind as JobKind, nodeId: typeof entry.nodeId === 'string' ? entry.nodeId : null }];
  });
}

/** A new job id: sortable by creation time, so that the JOBS collection lists oldest first. */
export const newJobId = (now: number, random: string): string => `${now.toString(36).padStart(9, '0')}-${random}`;

export function jobFromItem(item: Item): JobRecord {
  return {
    id: String(item.id),
    kind: item.kind as JobKind,
    status: item.status === 'DONE' || item.status === 'FAILED' ? item.status : 'RUNNING',
    done: Number(item.done ?? 0),
    total: typeof item.total === 'number' ? item.total : null,
    startedAt: String(item.startedAt),
    nodeId: typeof item.nodeId === 'string' ? item.nodeId : null,
    leaseToken: typeof item.leaseToken === 'string' ? item.leaseToken : null,
    leaseExpiresAt: Number(item.leaseExpiresAt ?? 0),
  };
}

/** The job as clients see it, without its lease. */
export const publicJob = ({ leaseToken: _token, leaseExpiresAt: _expires, ...job }: JobRecord): Job => job;

/** A lease: who holds a job, with which token, until when. */
export interface Lease {
  jobId: string;
  token: string;
  /** How long each renewal extends the lease. */
  durationMs: number;
}

/** Writes the record of a new running job, leased to its starter. */
export function planJobStart(tx: TransactionBuilder, job: Job, lease: Lease, now: number): void {
  tx.put(
    {
      ...jobKey(job.id),
      ...job,
      leaseToken: lease.token,
      leaseExpiresAt: now + lease.durationMs,
    },
    { notExists: true },
  );
  planListOpen(tx, job);
}

/** Lists a job among the open ones (OPEN_JOBS_KEY). */
function planListOpen(tx: TransactionBuilder, job: Pick<Job, 'id' | 'kind' | 'nodeId'>): void {
  tx.update(OPEN_JOBS_KEY, { set: { [openEntry(job.id)]: { kind: job.kind, nodeId: job.nodeId } } });
}

/** The fence: the lease is still ours. Renews it and adds `done` to the progress. */
export function planFence(tx: TransactionBuilder, lease: Lease, now: number, done = 0): void {
  tx.update(
    jobKey(lease.jobId),
    { set: { leaseExpiresAt: now + lease.durationMs }, add: { done } },
    ...holds(lease),
  );
}

/** The job is finished: its status, and no lease any more. */
export function planJobFinish(tx: TransactionBuilder, lease: Lease, status: 'DONE' | 'FAILED', done = 0): void {
  tx.update(jobKey(lease.jobId), { set: { status }, add: { done }, remove: ['leaseToken', 'leaseExpiresAt'] }, ...holds(lease));
  tx.update(OPEN_JOBS_KEY, { remove: [openEntry(lease.jobId)] });
}

/**
 * Takes a running job whose lease expired (`seen` is the record as read): conditioned on the
 * lease being the one that was read, so two processes sweeping at once cannot both take it.
 */
export function planTakeOver(tx: TransactionBuilder, seen: JobRecord, lease: Lease, now: number): void {
  tx.update(
    jobKey(seen.id),
    { set: { leaseToken: lease.token, leaseExpiresAt: now + lease.durationMs } },
    { exists: true },
    { equals: ['status', 'RUNNING'] },
    { equalsOrMissing: ['leaseToken', seen.leaseToken] },
  );
}

/** Gives a lease up at once (after a failure), so that a sweep takes the job over soon. */
export function planRelease(tx: TransactionBuilder, lease: Lease): void {
  tx.update(jobKey(lease.jobId), { set: { leaseExpiresAt: 0 } }, ...holds(lease));
}

const holds = (lease: Lease): Condition[] => [{ exists: true }, { equals: ['leaseToken', lease.token] }];
