import { describe, expect, it } from 'vitest';
import { plan } from '../../../../test/support/transactionSteps.js';
import {
  jobFromItem,
  jobKey,
  newJobId,
  planFence,
  planJobFinish,
  planJobAccept,
  planJobForget,
  planJobStart,
  planGiveUpLease,
  planTakeOver,
  publicJob,
  type Announced,
  type JobRecord,
  type Lease,
} from './jobRecord.js';

/** What announceJob answers (it writes the summary; these plans are pure). */
const announced = {} as Announced;

const lease: Lease = { jobId: 'j1', token: 'tok', durationMs: 5000 };
const job: JobRecord = {
  id: 'j1',
  kind: 'DELETE',
  status: 'RUNNING',
  done: 0,
  total: 64,
  startedAt: '2026-01-01T00:00:00.000Z',
  nodeId: 'big',
  leaseToken: 'old',
  leaseExpiresAt: 1000,
};

describe('job records', () => {
  it('gives job ids that sort by creation time', () => {
    const ids = [1, 2, 36, 1_700_000_000_000, 1_800_000_000_000].map((t) => newJobId(t, 'abc'));
    expect([...ids].sort()).toEqual(ids);
    expect(jobKey('x')).toEqual({ pk: 'JOBS', sk: 'JOB#x' });
  });

  it('starts a job leased to its starter with an entry of its own, and reads it back', () => {
    const { steps, items } = plan((tx) => planJobStart(tx, publicJob(job), lease, 100, announced));
    expect(steps).toEqual([
      { kind: 'Put', key: 'JOBS JOB#j1', condition: 'attribute_not_exists(pk)' },
      { kind: 'Put', key: 'JOBS ENTRY#j1', condition: 'attribute_not_exists(pk)' },
    ]);
    expect(items[1]!.Put!.Item).toEqual({ pk: 'JOBS', sk: 'ENTRY#j1', kind: 'DELETE', nodeId: 'big' });
    const item = items[0]!.Put!.Item!;
    expect(jobFromItem(item)).toEqual({ ...job, leaseToken: 'tok', leaseExpiresAt: 5100 });
  });

  it('starts a claiming job whose entry reads pass by, and accepts it with what reads see through', () => {
    const claiming = { ...publicJob(job), kind: 'MOVE' as const, claiming: true };
    const started = plan((tx) => planJobStart(tx, claiming, lease, 100, announced, claiming));
    expect(started.items[1]!.Put!.Item).toEqual({
      pk: 'JOBS',
      sk: 'ENTRY#j1',
      kind: 'MOVE',
      nodeId: 'big',
      claiming: true,
    });
    expect(jobFromItem(started.items[0]!.Put!.Item!).claiming).toBe(true);
    const move = { ...publicJob(job), kind: 'MOVE' as const, from: ['r'], to: ['s', 't'] };
    expect(plan((tx) => planJobAccept(tx, lease, 100, move, { total: 4 })).steps).toEqual([
      {
        kind: 'Update',
        key: 'JOBS JOB#j1',
        update: 'SET total = 4, leaseExpiresAt = 5100 REMOVE claiming',
        condition: 'attribute_exists(pk) AND leaseToken = "tok"',
      },
      {
        kind: 'Update',
        key: 'JOBS ENTRY#j1',
        update: 'SET from = ["r"], to = ["s","t"] REMOVE claiming',
        condition: 'attribute_exists(pk)',
      },
    ]);
    // Given up by its starter: nothing of it stays.
    expect(plan((tx) => planJobForget(tx, lease)).steps).toEqual([
      { kind: 'Delete', key: 'JOBS JOB#j1', condition: 'attribute_exists(pk) AND leaseToken = "tok"' },
      { kind: 'Delete', key: 'JOBS ENTRY#j1' },
    ]);
  });

  it('refuses a record that is no job, naming its key and what is wrong', () => {
    const item = { pk: 'JOBS', sk: 'JOB#j9', id: 'j9', kind: 'COPY', startedAt: 7 };
    expect(() => jobFromItem(item)).toThrow(
      /^item JOBS JOB#j9 is malformed: kind: Invalid option: .*; startedAt: Invalid input: expected string/,
    );
  });

  it('fences every chunk on the token, renewing the lease and counting progress', () => {
    expect(plan((tx) => planFence(tx, lease, 100, 7)).steps).toEqual([
      {
        kind: 'Update',
        key: 'JOBS JOB#j1',
        update: 'SET leaseExpiresAt = 5100 ADD done 7',
        condition: 'attribute_exists(pk) AND leaseToken = "tok"',
      },
    ]);
  });

  it('finishes a job under its lease, dropping the lease and its entry', () => {
    expect(plan((tx) => planJobFinish(tx, lease, 'DONE', { done: 3 })).steps).toEqual([
      {
        kind: 'Update',
        key: 'JOBS JOB#j1',
        update: 'SET status = "DONE" ADD done 3 REMOVE leaseToken, leaseExpiresAt',
        condition: 'attribute_exists(pk) AND leaseToken = "tok"',
      },
      { kind: 'Delete', key: 'JOBS ENTRY#j1' },
    ]);
  });

  it('takes over only the lease that was read, of a job still running', () => {
    expect(plan((tx) => planTakeOver(tx, job, lease, 100)).steps).toEqual([
      {
        kind: 'Update',
        key: 'JOBS JOB#j1',
        update: 'SET leaseToken = "tok", leaseExpiresAt = 5100',
        condition: 'attribute_exists(pk) AND status = "RUNNING" AND leaseToken = "old"',
      },
    ]);
    expect(plan((tx) => planTakeOver(tx, { ...job, leaseToken: null }, lease, 100)).steps[0]?.condition).toBe(
      'attribute_exists(pk) AND status = "RUNNING" AND attribute_not_exists(leaseToken)',
    );
  });

  it('releases a lease at once, only while holding it', () => {
    expect(plan((tx) => planGiveUpLease(tx, lease)).steps).toEqual([
      {
        kind: 'Update',
        key: 'JOBS JOB#j1',
        update: 'SET leaseExpiresAt = 0',
        condition: 'attribute_exists(pk) AND leaseToken = "tok"',
      },
    ]);
  });
});
