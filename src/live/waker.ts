import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

/**
 * Wakes the readers of a tree's change log when a change commits there. Only a wake-up: the
 * changes themselves are read from the log (changeHub.ts), so a lost wake-up delays a change
 * by the readers' poll, and loses nothing. In one process, an EventEmitter; across processes
 * (PUBSUB_URL), a Redis or Valkey channel per table, which every process publishes to and
 * listens on.
 */
export interface Waker {
  /** Tells every reader of tree `rootId` of tenant `tenant` (here and, with Redis, everywhere). */
  notify(tenant: string | null, rootId: string): void;
  /** Calls `listener` on every wake-up; answers how to stop. */
  listen(listener: (tenant: string | null, rootId: string) => void): () => void;
  close(): Promise<void>;
}

type Listener = (tenant: string | null, rootId: string) => void;

/** Wake-ups within this process. */
export function localWaker(): Waker {
  const events = new EventEmitter().setMaxListeners(0);
  return {
    notify: (tenant, rootId) => void events.emit('change', tenant, rootId),
    listen(listener: Listener) {
      events.on('change', listener);
      return () => void events.off('change', listener);
    },
    close: async () => void events.removeAllListeners(),
  };
}

/** What a Redis waker is told to drop (tests: a lost message must lose no change). */
export interface RedisWakerOptions {
  url: string;
  /** The channel: one per table, so that processes on other tables stay out. */
  channel: string;
  /** Called on each message received; true drops it (fault injection). */
  drop?: () => boolean;
  /** Told when the connection fails or comes back. */
  onError?: (error: Error) => void;
}

/**
 * Wake-ups through a Redis or Valkey server: a message [tenant, rootId, sender] on `channel` per
 * change.
 * Publishing is fire and forget (Redis pub/sub is at most once), as is receiving.
 */
export async function redisWaker(options: RedisWakerOptions): Promise<Waker> {
  const settings = { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false };
  const publisher = new Redis(options.url, settings);
  const subscriber = new Redis(options.url, { ...settings, enableOfflineQueue: true });
  for (const client of [publisher, subscriber]) client.on('error', (error: Error) => options.onError?.(error));
  await Promise.all([publisher.connect(), subscriber.connect()]);
  await subscriber.subscribe(options.channel);
  const local = localWaker();
  // This process's own messages come back to it: its readers were woken as it published.
  const self = randomUUID();
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== options.channel || options.drop?.()) return;
    try {
      const [tenant, rootId, from] = JSON.parse(message) as [string | null, string, string?];
      if (from !== self) local.notify(tenant, rootId);
    } catch {
      // Not ours: ignored.
    }
  });
  return {
    notify(tenant, rootId) {
      // This process's readers at once; the others through Redis (its own message comes back, dropped above).
      local.notify(tenant, rootId);
      publisher.publish(options.channel, JSON.stringify([tenant, rootId, self])).catch(() => {
        // Redis is away: the other processes' readers poll.
      });
    },
    listen: (listener) => local.listen(listener),
    async close() {
      await local.close();
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
