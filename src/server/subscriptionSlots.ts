import type { Caller } from '../auth/caller.js';
import { TreeError } from '../errors.js';
import type { Metrics } from './metrics.js';

/** The live subscriptions each caller holds in this process (LIVE_MAX_SUBSCRIPTIONS_PER_CALLER). */
export interface SubscriptionSlots {
  /** Takes one of the caller's slots (LIMIT_EXCEEDED when none is left); answers its release, idempotent. */
  take(caller: Caller): () => void;
}

/** One caller: its tenant and subject. */
const callerKey = (caller: Caller) => `${caller.tenant ?? ''}\u0000${caller.subject ?? ''}`;

/** At most `perCaller` subscriptions per caller, every one counted in canopy_live_subscriptions. */
export function subscriptionSlots(perCaller: number, metrics: Pick<Metrics, 'liveSubscriptions'>): SubscriptionSlots {
  const held = new Map<string, number>();
  return {
    take(caller) {
      const key = callerKey(caller);
      const count = held.get(key) ?? 0;
      if (count >= perCaller)
        throw new TreeError('LIMIT_EXCEEDED', `a caller may hold ${perCaller} live subscriptions`, {
          limit: perCaller,
        });
      held.set(key, count + 1);
      metrics.liveSubscriptions.inc();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        metrics.liveSubscriptions.dec();
        const left = (held.get(key) ?? 1) - 1;
        if (left > 0) held.set(key, left);
        else held.delete(key);
      };
    },
  };
}
