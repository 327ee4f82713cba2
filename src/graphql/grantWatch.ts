import type { Caller } from '../auth/caller.js';
import { notFound, type TreeError } from '../errors.js';
import { createLoaders } from '../loaders/createLoaders.js';
import type { TreeStore } from '../storage/treeStore.js';
import { createAccess } from './access.js';

/** One watched node of a caller, and what its subscription is told. */
export interface GrantWatcher {
  nodeId: string;
  /** What the caller may read, as each check read its grants. */
  readable(readable: (chain: readonly string[]) => boolean): void;
  /** The node is no longer the caller's to read: NOT_FOUND, the answer a new subscription would get. */
  gone(error: TreeError): void;
}

/** The checks of the grants on subtrees of every caller with open subscriptions (grantWatches). */
export interface GrantWatches {
  /**
   * Watches a node for `caller` until the answer is called (or the node is gone); nothing when
   * its credentials let it read every tree.
   */
  watch(caller: Caller, watcher: GrantWatcher): () => void;
}

export interface GrantWatchOptions {
  /** A store of the caller's (its tenant, its grants), for the checks' reads. */
  storeFor(caller: Caller): TreeStore;
  /** GRANTS_CACHE_MS. */
  everyMs: number;
}

/**
 * The grants on subtrees of each caller (its tenant, principals and credentials' grants) with
 * open subscriptions on this process, read again every GRANTS_CACHE_MS by one timer per caller,
 * however many subscriptions and connections it has: what it may read is then what their changes
 * are filtered by (LiveContext.readable), and a watched node it may no longer read (a grant
 * revoked, the node moved out of reach) ends that subscription with NOT_FOUND. Each time, one
 * read of the caller's grants and one batched read of its watched nodes (and, under adjacency,
 * their ancestors); nothing for a caller whose credentials let it read every tree.
 */
export function grantWatches(options: GrantWatchOptions): GrantWatches {
  const callers = new Map<string, CallerWatch>();
  return {
    watch(caller, watcher) {
      if (caller.grants.all !== null) return () => {};
      const key = callerKey(caller);
      let held = callers.get(key);
      if (!held) callers.set(key, (held = callerWatch(options, caller, () => callers.delete(key))));
      held.add(watcher);
      const from = held;
      return () => from.remove(watcher);
    },
  };
}

/** One caller: its tenant, principals and grants. */
const callerKey = ({ tenant, principals, grants }: Caller): string =>
  JSON.stringify([tenant, principals, grants.all, [...grants.trees].sort()]);

interface CallerWatch {
  add(watcher: GrantWatcher): void;
  remove(watcher: GrantWatcher): void;
}

/** One caller's timer and watched nodes; `done` once none is left. */
function callerWatch(options: GrantWatchOptions, caller: Caller, done: () => void): CallerWatch {
  const watchers = new Set<GrantWatcher>();
  const store = options.storeFor(caller);
  const check = async () => {
    store.access.forget();
    const loaders = createLoaders(store);
    const access = createAccess(caller.grants, store.access, loaders, caller.principals);
    const readable = await access.readable();
    const watched = [...watchers];
    const visible = await Promise.all(
      watched.map(async ({ nodeId }) => (await access.visible(await loaders.nodeById.load(nodeId))) !== null),
    );
    watched.forEach((watcher, i) => {
      if (!watchers.has(watcher)) return;
      watcher.readable(readable);
      if (visible[i]) return;
      remove(watcher);
      watcher.gone(notFound('node', watcher.nodeId));
    });
  };
  // A failed read (DynamoDB unavailable) keeps the grants last read until the next one.
  const timer = setInterval(() => void check().catch(() => {}), options.everyMs);
  timer.unref();
  const remove = (watcher: GrantWatcher) => {
    if (!watchers.delete(watcher) || watchers.size > 0) return;
    clearInterval(timer);
    done();
  };
  return { add: (watcher) => watchers.add(watcher), remove };
}
