import { loadConfig } from '../config.js';
import { dynamoFor, storeFor } from '../storeFor.js';
import type { TreeAdmin } from '../storage/treeStore.js';
import { announcedJob, announcedKey, type StreamRecord } from './jobRecords.js';

/** An event the handler takes: a DynamoDB Streams batch, or anything else (a schedule). */
export interface WorkerEvent {
  Records?: StreamRecord[];
}

/** What the handler answers: how many jobs it ran to their end. */
export interface WorkerResult {
  ran: number;
}

/**
 * The handler of JOB_RUNNER=worker for AWS Lambda, over `store` (the default tenant's):
 *
 * - a DynamoDB Streams batch: it takes up every running job a record announces (under the same
 *   leases and fences as the in-process runner) and runs it to its end, the batch's jobs in
 *   parallel;
 * - any other event (a schedule, every minute): one sweep of every tenant's jobs, so that a job
 *   whose runner stopped (an invocation that timed out) is taken over once its lease expires.
 */
export function createWorkerHandler(admin: TreeAdmin): (event: WorkerEvent) => Promise<WorkerResult> {
  return async (event) => {
    if (!Array.isArray(event.Records)) return { ran: await admin.sweepJobs() };
    const jobs = new Map(
      event.Records.flatMap((record) => {
        const job = announcedJob(record);
        return job ? [[announcedKey(job), job] as const] : [];
      }),
    );
    const ran = await Promise.all([...jobs.values()].map((job) => admin.forTenant(job.tenant).takeUpJob(job.jobId)));
    return { ran: ran.filter(Boolean).length };
  };
}

let configured: ((event: WorkerEvent) => Promise<WorkerResult>) | undefined;

/**
 * `dist/src/worker/lambda.handler`: the worker handler, configured by the server's environment
 * variables (DYNAMODB_TABLE, TREE_STRATEGY, JOB_LEASE_SECONDS, ...), built once per container.
 */
export async function handler(event: WorkerEvent): Promise<WorkerResult> {
  if (!configured) {
    const config = loadConfig();
    const dynamo = dynamoFor(config);
    configured = createWorkerHandler(storeFor(config, dynamo));
  }
  return configured(event);
}
