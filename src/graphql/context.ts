import type { Caller } from '../auth/caller.js';
import type { Loaders } from '../loaders/createLoaders.js';
import type { Access } from './access.js';
import type { TreeStore } from '../storage/treeStore.js';
import type { ChangeHub } from '../live/changeHub.js';

export interface Context {
  store: TreeStore;
  loaders: Loaders;
  /** What the caller may read and write. */
  access: Access;
  /** The tree nodes the answer holds so far: the cost report's itemsReturned (returnedNodes.ts). */
  returned?: { nodes: number };
  /** A subscription's (GraphQL over WebSocket or Server-Sent Events): the change hub and its limits. */
  live?: LiveContext;
}

/** What a subscription needs of the server besides the request's context. */
export interface LiveContext {
  hub: ChangeHub;
  tenant: string | null;
  /** Who subscribed, as admitted. */
  caller: Caller;
  /** Authenticates the subscription's credentials again, as at admission (while it stays open). */
  reauthenticate(): Promise<Caller>;
  /** CHANGE_RETENTION_HOURS, in ms. */
  resumeWithinMs: number;
  /** LIVE_QUEUE_LIMIT. */
  queueLimit: number;
  /** GRANTS_CACHE_MS: how often the caller's grants on subtrees are read again (grantWatch.ts). */
  grantsCacheMs: number;
  /** Whether the caller may read the node of a chain, as its grants were last read (set when it subscribes). */
  readable?: (chain: readonly string[]) => boolean;
  /** Told of each change sent (when it committed) and of each subscriber closed for being slow (metrics). */
  observe?: { delivered(at: string): void; dropped(): void };
}
