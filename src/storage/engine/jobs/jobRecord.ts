import { randomUUID } from 'node:crypto';
import { JOB_SK_PREFIX, JOBS_PK, TENANTS_PK, type Item, type Key } from '../../../dynamodb/keys.js';
import { z } from 'zod';
import { decodeItem } from '../../../dynamodb/decodeItem.js';
import type { Condition, TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import type { Job, JobKind } from '../../treeStore.js';
import { JOB_KIND, planEntryAccept, planEntryClose, planEntryOpen, type OpenEntry } from '../core/openJobs.js';

/**
 * The record of a job (pk JOBS, sk JOB#<id>), and the pure plans of its writes. A running job
 * holds a lease: an owner, a fencing token and an expiry. Every chunk the runner commits carries
 * an update of the record conditioned on the token (the fence), which also renews the lease and
 * counts progress: a runner that lost its lease (paused past the expiry, partitioned) can never
 * commit a chunk after another process took the job over.
 */
export interface JobRecord extends Job {
  /** A move's ancestors of the moved node, before and after (openJobs.ts, OpenMove). */
  from?: string[];
  to?: string[];
  /** A move's sibling positions of the moved node's new chain, its own last (Place.lineage). */
  toLineage?: string[];
  /** A move's (or a path key rename's) path keys of the moved node's new chain, its own last (Place.keys). */
  toKeys?: string[];
  /** A reindex's target strategy, and the last node id it placed (nodes go in id order). */
  target?: string;
  after?: string | null;
  /**
   * An import's nodes as `[id, parentId, position]`, parents first (the ids of the others, and
   * where their edges are, for a process that takes the job over), and whether they have joined
   * the tree (the job then writes their projection; before, it is given up and undone).
   */
  imports?: ImportedNode[];
  /** The same list, for an import too big to hold it in its record: the number of its packs (importJob.ts). */
  importPacks?: number;
  joined?: boolean;
  /**
   * A move or a delete that claims its subtree (core/claims.ts) and is not accepted yet: nothing
   * of its change is applied, and a process that takes it over gives it up.
   */
  claiming?: boolean;
  /** The fencing token of the lease; null once the job is finished. */
  leaseToken: string | null;
  /** Epoch milliseconds after which any process may take the job over. */
  leaseExpiresAt: number;
}

export const jobKey = (id: string): Key => ({ pk: JOBS_PK, sk: `${JOB_SK_PREFIX}${id}` });

/** A new job id: sortable by creation time, so that the JOBS collection lists oldest first. */
export const newJobId = (now: number, random: string): string => `${now.toString(36).padStart(9, '0')}-${random}`;

const ids = z.array(z.string());

/** A node of an import job as stored (ImportedNode), in its record or in a pack of them (importJob.ts). */
export const IMPORTED_NODE = z.tuple([z.string(), z.string().nullable(), z.string()]);

/** A job record as stored (its key, the public job, the lease, the fields of its kind). */
export const JOB_ITEM = z.object({
  id: z.string(),
  kind: JOB_KIND,
  status: z.string().optional(),
  done: z.number().optional(),
  total: z.number().nullish(),
  startedAt: z.string(),
  nodeId: z.string().nullish(),
  leaseToken: z.string().nullish(),
  leaseExpiresAt: z.number().optional(),
  from: ids.optional(),
  to: ids.optional(),
  toLineage: ids.optional(),
  toKeys: ids.optional(),
  target: z.string().optional(),
  after: z.string().nullish(),
  imports: z.array(IMPORTED_NODE).optional(),
  importPacks: z.number().optional(),
  joined: z.boolean().optional(),
  claiming: z.boolean().optional(),
});

/** A job record as read (decoded by its schema: MalformedItem names a record that is not one). */
export function jobFromItem(item: Item): JobRecord {
  const stored = decodeItem(JOB_ITEM, item);
  const status = stored.status === 'DONE' || stored.status === 'FAILED' ? stored.status : 'RUNNING';
  const done = stored.done ?? 0;
  return {
    id: stored.id,
    kind: stored.kind,
    status,
    done,
    // A job that does not count its work beforehand (a move) did all of it once done.
    total: stored.total ?? (status === 'DONE' ? done : null),
    startedAt: stored.startedAt,
    nodeId: stored.nodeId ?? null,
    leaseToken: stored.leaseToken ?? null,
    leaseExpiresAt: stored.leaseExpiresAt ?? 0,
    ...(stored.from ? { from: stored.from } : {}),
    ...(stored.to ? { to: stored.to } : {}),
    ...(stored.toLineage ? { toLineage: stored.toLineage } : {}),
    ...(stored.toKeys ? { toKeys: stored.toKeys } : {}),
    ...(stored.target !== undefined ? { target: stored.target, after: stored.after ?? null } : {}),
    ...(stored.imports ? { imports: stored.imports } : {}),
    ...(stored.importPacks !== undefined ? { importPacks: stored.importPacks } : {}),
    ...(stored.imports || stored.importPacks !== undefined ? { joined: stored.joined === true } : {}),
    ...(stored.claiming === true ? { claiming: true } : {}),
  };
}

/** The job as clients see it, without its lease. */
export const publicJob = ({
  leaseToken: _t,
  leaseExpiresAt: _e,
  from: _f,
  to: _to,
  toLineage: _l,
  toKeys: _k,
  target: _g,
  after: _a,
  imports: _i,
  importPacks: _p,
  joined: _j,
  claiming: _c,
  ...job
}: JobRecord): Job => job;

/** A new running job, not yet leased (planJobStart leases it). */
export function newJob(
  kind: JobKind,
  nodeId: string | null,
  total: number | null,
  extra: Pick<JobRecord, 'from' | 'to' | 'toLineage' | 'toKeys' | 'target' | 'imports' | 'importPacks'> = {},
): JobRecord {
  const now = Date.now();
  return {
    id: newJobId(now, randomUUID().slice(0, 8)),
    kind,
    status: 'RUNNING',
    done: 0,
    total,
    startedAt: new Date(now).toISOString(),
    nodeId,
    leaseToken: null,
    leaseExpiresAt: 0,
    ...extra,
  };
}

/** A node of an import job: its id, its parent (null: a root), its sibling position. */
export type ImportedNode = [id: string, parentId: string | null, position: string];

/** A lease: who holds a job, with which token, until when. */
export interface Lease {
  jobId: string;
  token: string;
  /** How long each renewal extends the lease. */
  durationMs: number;
}

declare const announced: unique symbol;
/** What planJobStart asks of its caller: the job was announced (announceJob.ts). */
export interface Announced {
  readonly [announced]: true;
}

/** The item that tells the job sweep of every process that a tenant has open jobs. */
export const tenantKey = (tenant: string): Key => ({ pk: TENANTS_PK, sk: tenant });

/** A tenant listed with open jobs, as stored (tenantKey): since when (epoch ms; announceJob.ts listTenant). */
export const TENANT_ITEM = z.object({ sk: z.string(), since: z.number().optional() });

/** A tenant's item as read: its name and since when it is listed, decoded (MalformedItem when it is not one). */
export function listedTenantOf(item: Item): { tenant: string; since: number } {
  const { sk, since } = decodeItem(TENANT_ITEM, item);
  return { tenant: sk, since: since ?? 0 };
}

/**
 * The record of an open delete as earlier versions wrote it (pk JOBS, sk DELETE#<nodeId>, no
 * lease): the job sweep adopts it as a job record (jobRunner.ts).
 */
export const LEGACY_DELETE_ITEM = z.object({
  pk: z.string(),
  sk: z.string(),
  jobId: z.string(),
  nodeId: z.string(),
  createdAt: z.string(),
});

/** A legacy delete's record as read, decoded (MalformedItem, naming its key, when it is not one). */
export const legacyDeleteOf = (item: Item): z.output<typeof LEGACY_DELETE_ITEM> => decodeItem(LEGACY_DELETE_ITEM, item);

/**
 * Writes the record of a new running job, leased to its starter, and its entry among the open
 * jobs (`entry`: the job's own; a claiming job's says so, and reads pass it by until the job is
 * accepted: planJobAccept). Only a job that announced itself (announceJob.ts) starts: reads then
 * look for its entry.
 */
export function planJobStart(
  tx: TransactionBuilder,
  job: Omit<JobRecord, 'leaseToken' | 'leaseExpiresAt'>,
  lease: Lease,
  now: number,
  _announced: Announced,
  entry: OpenEntry = job,
): void {
  tx.put(
    {
      ...jobKey(job.id),
      ...job,
      leaseToken: lease.token,
      leaseExpiresAt: now + lease.durationMs,
    },
    { notExists: true },
  );
  planEntryOpen(tx, entry);
}

/**
 * A claiming job is accepted (core/claims.ts), in the transaction that applies its change: its
 * record no longer claiming (on its lease, renewed, with `record` set), its entry now what reads
 * see through (`entry`: a move's `from` and `to`).
 */
export function planJobAccept(
  tx: TransactionBuilder,
  lease: Lease,
  now: number,
  entry: OpenEntry,
  record: Record<string, unknown> = {},
): void {
  tx.update(
    jobKey(lease.jobId),
    { set: { ...record, leaseExpiresAt: now + lease.durationMs }, remove: ['claiming'] },
    ...holds(lease),
  );
  planEntryAccept(tx, entry);
}

/**
 * The fence: the lease is still ours. Renews it, adds `done` to the progress and sets `record`
 * (a job's own progress fields, such as a reindex's `after`).
 */
export function planFence(
  tx: TransactionBuilder,
  lease: Lease,
  now: number,
  done = 0,
  record: Record<string, unknown> = {},
): void {
  tx.update(
    jobKey(lease.jobId),
    { set: { ...record, leaseExpiresAt: now + lease.durationMs }, add: { done } },
    ...holds(lease),
  );
}

/** The job is finished: its status, no lease any more, and its entry deleted. */
export function planJobFinish(
  tx: TransactionBuilder,
  lease: Lease,
  status: 'DONE' | 'FAILED',
  progress: { done?: number; record?: Record<string, unknown> } = {},
): void {
  const { done = 0, record = {} } = progress;
  tx.update(
    jobKey(lease.jobId),
    { set: { ...record, status }, add: { done }, remove: ['leaseToken', 'leaseExpiresAt'] },
    ...holds(lease),
  );
  planEntryClose(tx, lease.jobId);
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
export function planGiveUpLease(tx: TransactionBuilder, lease: Lease): void {
  tx.update(jobKey(lease.jobId), { set: { leaseExpiresAt: 0 } }, ...holds(lease));
}

/** A claiming job given up by the process that started it: no record of it stays, nor its entry. */
export function planJobForget(tx: TransactionBuilder, lease: Lease): void {
  tx.delete(jobKey(lease.jobId), ...holds(lease));
  planEntryClose(tx, lease.jobId);
}

const holds = (lease: Lease): Condition[] => [{ exists: true }, { equals: ['leaseToken', lease.token] }];
