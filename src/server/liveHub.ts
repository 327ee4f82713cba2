import type { Config } from '../config.js';
import { ChangeHub } from '../live/changeHub.js';
import { localWaker, redisWaker, type Waker } from '../live/waker.js';
import type { TreeAdmin } from '../storage/treeStore.js';
import type { storeFor } from '../storeFor.js';
import type { Logger } from './logger.js';

/** How often a tree with live subscribers here is read without a wake-up (a lost one costs at most this). */
const LIVE_POLL_MS = 1000;
/** How long a tree's reader waits for a change number not written yet before giving it up. */
const LIVE_PATIENCE_MS = 2000;

/** What the store tells of the changes this process committed. */
type OnChanged = NonNullable<Parameters<typeof storeFor>[3]>;

export interface WakerOptions {
  config: Pick<Config, 'pubsubUrl' | 'table'>;
  logger: Logger;
  /** Drops the pub/sub wake-up it answers true for (tests: a lost one must lose no change). */
  drop?: () => boolean;
}

/**
 * The wake-ups of live subscribers: the changes committed here wake this process's subscribers,
 * and, with PUBSUB_URL, every other process's through Redis or Valkey.
 */
export async function openWaker(options: WakerOptions): Promise<Waker> {
  const { config, logger } = options;
  if (!config.pubsubUrl) return localWaker();
  return redisWaker({
    url: config.pubsubUrl,
    channel: `canopy:changes:${config.table}`,
    ...(options.drop ? { drop: options.drop } : {}),
    onError: (error) => logger.warn({ error: error.message }, 'pub/sub connection failed; subscribers poll'),
  });
}

/** Wakes the readers of every tree a commit changed, once each. */
export function wakeOnChanges(waker: Waker): OnChanged {
  return (tenant, changes) => {
    for (const rootId of new Set(changes.map((change) => change.rootId))) waker.notify(tenant, rootId);
  };
}

/** This process's one reader of each tree's changes, shared by the tree's live subscribers. */
export function createLiveHub(admin: Pick<TreeAdmin, 'forTenant'>, waker: Waker): ChangeHub {
  return new ChangeHub({
    storeOf: (tenant) => admin.forTenant(tenant).store,
    waker,
    pollMs: LIVE_POLL_MS,
    patienceMs: LIVE_PATIENCE_MS,
  });
}
