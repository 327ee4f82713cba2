import { JOB_SK_PREFIX, JOBS_PK, TENANT_PATTERN, TENANT_PK_PREFIX } from '../dynamodb/keys.js';
import type { TableStreamRecord } from '../dynamodb/tableStream.js';

/** What a worker needs of one DynamoDB Streams record (the shape of the Streams API and of a Lambda event). */
export type StreamRecord = TableStreamRecord;

/** A running job a stream record announces: its tenant (null: the default tenant) and id. */
export interface AnnouncedJob {
  tenant: string | null;
  jobId: string;
}

/** Pure. One string per job of any tenant (a job id is unique within its tenant only). */
export const announcedKey = (job: AnnouncedJob): string => `${job.tenant ?? ''}\u0000${job.jobId}`;

/**
 * Pure. The running job whose record a stream record wrote (a job starts, renews its lease or
 * is released), or null for any other item: nodes, edges, projections, finished jobs, removals.
 * A tenant's job records live under its prefix (`T#<tenant>#JOBS`).
 */
export function announcedJob(record: StreamRecord): AnnouncedJob | null {
  if (record.eventName === 'REMOVE') return null;
  const pk = record.dynamodb?.Keys?.pk?.S;
  const sk = record.dynamodb?.Keys?.sk?.S;
  if (pk === undefined || sk === undefined || !sk.startsWith(JOB_SK_PREFIX)) return null;
  if (record.dynamodb?.NewImage?.status?.S !== 'RUNNING') return null;
  const jobId = sk.slice(JOB_SK_PREFIX.length);
  if (pk === JOBS_PK) return { tenant: null, jobId };
  const suffix = `#${JOBS_PK}`;
  if (!pk.startsWith(TENANT_PK_PREFIX) || !pk.endsWith(suffix)) return null;
  const tenant = pk.slice(TENANT_PK_PREFIX.length, -suffix.length);
  return TENANT_PATTERN.test(tenant) ? { tenant, jobId } : null;
}
