/**
 * A per-caller rate limit: a token bucket per caller key, refilled at `perSecond` tokens a
 * second up to `burst`; each request takes one token, and a request that finds none is refused
 * with the seconds until one is back (Retry-After). Kept in this process's memory: a bucket shared
 * through DynamoDB would cost a write per request, more than most operations it protects. Behind
 * a load balancer with N processes, a caller may get up to N times the rate.
 */
export interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date (ms). */
  at: number;
}

export interface RateLimitSettings {
  perSecond: number;
  burst: number;
}

/** Pure: the bucket after a request at `now`, and whether it was let through (else when to retry). */
export function takeToken(
  bucket: Bucket | undefined,
  now: number,
  settings: RateLimitSettings,
): { bucket: Bucket; retryAfterSeconds: number | null } {
  const elapsed = bucket ? Math.max(0, now - bucket.at) / 1000 : 0;
  const tokens = Math.min(settings.burst, (bucket?.tokens ?? settings.burst) + elapsed * settings.perSecond);
  if (tokens >= 1) return { bucket: { tokens: tokens - 1, at: now }, retryAfterSeconds: null };
  return { bucket: { tokens, at: now }, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / settings.perSecond)) };
}

/** Callers whose buckets are kept at most; past it the least recently seen are forgotten (full again). */
const MAX_BUCKETS = 100_000;

/**
 * The process's buckets: `take(caller)` answers null (go on) or the seconds to wait;
 * `blocked(caller)` answers the same without taking a token.
 */
export function createRateLimiter(settings: RateLimitSettings, clock: () => number = Date.now) {
  const buckets = new Map<string, Bucket>();
  const keep = (caller: string, bucket: Bucket) => {
    buckets.delete(caller);
    if (buckets.size >= MAX_BUCKETS) buckets.delete(buckets.keys().next().value!);
    buckets.set(caller, bucket);
  };
  return {
    take(caller: string): number | null {
      const { bucket, retryAfterSeconds } = takeToken(buckets.get(caller), clock(), settings);
      keep(caller, bucket);
      return retryAfterSeconds;
    },
    blocked(caller: string): number | null {
      const existing = buckets.get(caller);
      return existing ? takeToken(existing, clock(), settings).retryAfterSeconds : null;
    },
  };
}
