import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { unauthenticated } from '../errors.js';
import type { Caller } from './caller.js';
import { watchCredentials } from './credentialWatch.js';
import { ADMIN_ALL } from './grants.js';

const callerUntil = (checkAgainAt: number | undefined): Caller => ({
  via: 'apikey',
  subject: 'k',
  tenant: null,
  grants: ADMIN_ALL,
  principals: ['key:k'],
  ...(checkAgainAt === undefined ? {} : { checkAgainAt }),
});

describe('watchCredentials', () => {
  beforeEach(() => void vi.useFakeTimers({ now: 0 }));
  afterEach(() => void vi.useRealTimers());

  it('authenticates again at checkAgainAt, not before, then at the next one', async () => {
    const times: number[] = [];
    const watch = watchCredentials({
      caller: callerUntil(1000),
      authenticate: async () => (times.push(Date.now()), callerUntil(Date.now() + 1000)),
      accept: async () => {},
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(times).toEqual([]);
    await vi.advanceTimersByTimeAsync(1001);
    expect(times).toEqual([1000, 2000]);
    watch.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(times).toEqual([1000, 2000]);
  });

  it('ends with the refusal, which current() throws from then on', async () => {
    const revoked = unauthenticated('the API key has been revoked');
    const watch = watchCredentials({
      caller: callerUntil(1000),
      authenticate: () => Promise.reject(revoked),
      accept: async () => {},
    });
    await expect(watch.current()).resolves.toMatchObject({ subject: 'k' });
    await vi.advanceTimersByTimeAsync(1000);
    await expect(watch.ended).resolves.toBe(revoked);
    await expect(watch.current()).rejects.toBe(revoked);
  });

  it('makes current() wait for a check that is due, before its timer fires', async () => {
    const refusal = unauthenticated('the token has expired');
    let authenticated = 0;
    const watch = watchCredentials({
      caller: callerUntil(1000),
      authenticate: async () => {
        authenticated++;
        throw refusal;
      },
      accept: async () => {},
      now: () => 1000,
    });
    await expect(watch.current()).rejects.toBe(refusal);
    expect(authenticated).toBe(1);
  });

  it('throws what accept throws, and never checks a caller without checkAgainAt', async () => {
    const none = watchCredentials({
      caller: callerUntil(undefined),
      authenticate: () => Promise.reject(new Error('never called')),
      accept: async () => {},
    });
    await vi.advanceTimersByTimeAsync(2 ** 32);
    await expect(none.current()).resolves.toMatchObject({ subject: 'k' });
    const narrowed = new Error('narrowed');
    const watch = watchCredentials({
      caller: callerUntil(1000),
      authenticate: async () => callerUntil(2000),
      accept: () => Promise.reject(narrowed),
    });
    await vi.advanceTimersByTimeAsync(1000);
    await expect(watch.ended).resolves.toBe(narrowed);
  });

  it('waits past the longest timer for a far expiry', async () => {
    let authenticated = 0;
    const watch = watchCredentials({
      caller: callerUntil(2 ** 32),
      authenticate: async () => (authenticated++, callerUntil(2 ** 33)),
      accept: async () => {},
    });
    await vi.advanceTimersByTimeAsync(2 ** 31);
    expect(authenticated).toBe(0);
    await vi.advanceTimersByTimeAsync(2 ** 32 - 2 ** 31);
    expect(authenticated).toBe(1);
    watch.stop();
  });
});
