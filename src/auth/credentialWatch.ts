import type { Caller } from './caller.js';

/** The longest delay setTimeout takes (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface CredentialWatchOptions {
  /** The caller as admitted. */
  caller: Caller;
  /** Authenticates the same credentials again, as a request would be (the one authenticate function). */
  authenticate(): Promise<Caller>;
  /**
   * Takes a caller whose credentials still hold (its grants may have changed since `before`), or
   * throws what a new subscription of it would be answered.
   */
  accept(caller: Caller, before: Caller): Promise<void>;
  now?: () => number;
}

/**
 * The credentials of one open subscription, authenticated again at the caller's `checkAgainAt`
 * (a token's expiry; an API key's next read, so a revocation reaches the stream as soon as it
 * reaches requests), with a timer rather than a poll. A refusal ends the watch for good:
 * `ended` settles with it and `current` throws it.
 */
export interface CredentialWatch {
  /**
   * The caller to deliver the next event to: as last checked, or, once a check is due, after
   * it. Throws the refusal once the credentials no longer hold.
   */
  current(): Promise<Caller>;
  /** Settles with the refusal that ends the subscription; pending while the credentials hold. */
  readonly ended: Promise<unknown>;
  /** Stops checking (the subscription ended). */
  stop(): void;
}

export function watchCredentials(options: CredentialWatchOptions): CredentialWatch {
  const now = options.now ?? Date.now;
  let caller = options.caller;
  let checking: Promise<Caller> | null = null;
  let refusal: { error: unknown } | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let end!: (error: unknown) => void;
  const ended = new Promise<unknown>((resolve) => (end = resolve));

  const due = () => caller.checkAgainAt !== undefined && now() >= caller.checkAgainAt;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  const check = (): Promise<Caller> =>
    (checking ??= (async () => {
      const fresh = await options.authenticate();
      await options.accept(fresh, caller);
      return fresh;
    })().then(
      (fresh) => {
        checking = null;
        caller = fresh;
        schedule();
        return fresh;
      },
      (error: unknown) => {
        checking = null;
        refusal = { error };
        stop();
        end(error);
        throw error;
      },
    ));
  // At the time itself (a check that finds the old record still trusted comes again a ms later).
  function schedule(): void {
    clearTimeout(timer);
    const at = caller.checkAgainAt;
    if (stopped || at === undefined) return;
    timer = timerAt(at - now(), () => (due() ? void check().catch(() => {}) : schedule()));
  }
  schedule();

  return {
    ended,
    async current() {
      if (refusal) throw refusal.error;
      if (checking) return checking;
      return due() ? check() : caller;
    },
    stop,
  };
}

/** A timer `ms` ahead (at least 1 ms, at most MAX_TIMER_MS) that keeps no process alive. */
function timerAt(ms: number, fire: () => void): ReturnType<typeof setTimeout> {
  const timer = setTimeout(fire, Math.min(Math.max(ms, 1), MAX_TIMER_MS));
  timer.unref?.();
  return timer;
}
