import type { Dynamo, StreamsClient } from '../dynamodb/client.js';
import { tailTableStream } from '../dynamodb/tableStream.js';
import type { TreeAdmin } from '../storage/treeStore.js';
import { announcedJob, announcedKey, type StreamRecord } from './jobRecords.js';

export interface StreamWorkerOptions {
  dynamo: Pick<Dynamo, 'client'>;
  streams: StreamsClient;
  table: string;
  /** The default tenant's admin (the worker takes each job up in its tenant). */
  admin: TreeAdmin;
  /** How long to wait before reading the stream again once it had nothing new (ms; default 250). */
  idleMs?: number;
  /** Told of what goes wrong (the worker goes on). */
  onError?: (what: string, error: unknown) => void;
}

export interface StreamWorker {
  /** Stops reading the stream and sweeping, and waits for the jobs it is running. */
  stop(): Promise<void>;
}

/**
 * The long-running consumer of the table's stream (JOB_RUNNER=worker): it takes up each running
 * job whose record a write announces, as soon as it reads it, under the same leases and fences
 * as the in-process runner (TreeAdmin.takeUpJob). It also sweeps every half lease, as a server
 * does, so that a job recorded before it started, or whose runner died, is taken over within
 * 1.5 leases. Any number of workers may run: a lease lets one run a job at a time.
 */
export async function startStreamWorker(options: StreamWorkerOptions): Promise<StreamWorker> {
  const { admin } = options;
  const onError = options.onError ?? ((what, error) => console.error(`${what}:`, error));
  const running = new Map<string, Promise<unknown>>();
  /** Each announced job runs once at a time in this process; between processes, the lease decides. */
  const takeUp = (record: StreamRecord) => {
    const job = announcedJob(record);
    if (!job) return;
    const key = announcedKey(job);
    if (running.has(key)) return;
    const work = admin
      .forTenant(job.tenant)
      .takeUpJob(job.jobId)
      .catch((error: unknown) => onError(`job ${job.jobId}`, error))
      .finally(() => running.delete(key));
    running.set(key, work);
  };
  const tail = await tailTableStream({
    client: options.dynamo.client,
    streams: options.streams,
    table: options.table,
    idleMs: options.idleMs ?? 250,
    onRecords: (records) => records.forEach(takeUp),
    onError: (error) => onError('reading the stream', error),
  });
  const sweeper = admin.startJobs();
  return {
    async stop() {
      await tail.stop();
      await sweeper.stop();
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
  };
}
