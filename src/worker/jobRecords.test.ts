import { describe, expect, it } from 'vitest';
import { announcedJob, type StreamRecord } from './jobRecords.js';

const record = (pk: string, sk: string, status: string | undefined, eventName = 'MODIFY'): StreamRecord => ({
  eventName,
  dynamodb: { Keys: { pk: { S: pk }, sk: { S: sk } }, NewImage: status === undefined ? {} : { status: { S: status } } },
});

describe('announcedJob', () => {
  it('names the running job of a job record, with its tenant', () => {
    expect(announcedJob(record('JOBS', 'JOB#0001-abc', 'RUNNING', 'INSERT'))).toEqual({
      tenant: null,
      jobId: '0001-abc',
    });
    expect(announcedJob(record('T#acme#JOBS', 'JOB#0002', 'RUNNING'))).toEqual({ tenant: 'acme', jobId: '0002' });
  });

  it('ignores finished jobs, removals, the list of open jobs and every other item', () => {
    expect(announcedJob(record('JOBS', 'JOB#1', 'DONE'))).toBeNull();
    expect(announcedJob(record('JOBS', 'JOB#1', 'RUNNING', 'REMOVE'))).toBeNull();
    expect(announcedJob(record('JOBS', 'OPEN', undefined))).toBeNull();
    expect(announcedJob(record('N#a', 'JOB#x', 'RUNNING'))).toBeNull();
    expect(announcedJob(record('T#bad tenant#JOBS', 'JOB#1', 'RUNNING'))).toBeNull();
    expect(announcedJob(record('N#a', 'E#a0#b', undefined))).toBeNull();
    expect(announcedJob({})).toBeNull();
  });
});
