import { describe, expect, it } from 'vitest';
import { createRateLimiter, takeToken } from './rateLimit.js';

describe('takeToken', () => {
  const settings = { perSecond: 2, burst: 3 };

  it('lets a burst through, then refuses with the seconds until a token is back', () => {
    let bucket;
    const answers: Array<number | null> = [];
    for (let i = 0; i < 4; i++) {
      const taken = takeToken(bucket, 1000, settings);
      bucket = taken.bucket;
      answers.push(taken.retryAfterSeconds);
    }
    expect(answers).toEqual([null, null, null, 1]);
  });

  it('refills at the rate, never above the burst', () => {
    const empty = { tokens: 0, at: 0 };
    expect(takeToken(empty, 400, settings).retryAfterSeconds).toBe(1);
    expect(takeToken(empty, 500, settings).retryAfterSeconds).toBeNull();
    expect(takeToken(empty, 60_000, settings).bucket.tokens).toBe(2);
    expect(takeToken({ tokens: 0, at: 0 }, 0, { perSecond: 0.1, burst: 1 }).retryAfterSeconds).toBe(10);
  });
});

describe('createRateLimiter', () => {
  it('keeps one bucket per caller: one caller over its limit leaves the others alone', () => {
    let now = 0;
    const limiter = createRateLimiter({ perSecond: 1, burst: 2 }, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([null, null, 1]);
    expect(limiter.take('b')).toBeNull();
    now = 1000;
    expect(limiter.take('a')).toBeNull();
  });

  it('tells a caller is blocked without taking a token', () => {
    const limiter = createRateLimiter({ perSecond: 1, burst: 1 }, () => 0);
    expect(limiter.blocked('a')).toBeNull();
    expect(limiter.take('a')).toBeNull();
    expect(limiter.blocked('a')).toBe(1);
    expect(limiter.blocked('a')).toBe(1);
    expect(limiter.blocked('b')).toBeNull();
  });
});
