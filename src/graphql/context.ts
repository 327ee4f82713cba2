import type { Caller } from '../auth/caller.js';
import type { Loaders } from '../loaders/createLoaders.js';
import type { Access } from './access.js';
import type { TreeStore } from '../storage/treeStore.js';
import type { ChangeHub } from '../live/changeHub.js';
import type { GrantWatches } from './grantWatch.js';

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

/**
 * What a subscription needs of the server besides the request's context. Its connection's caller,
 * store and credential checks are shared by the connection's subscriptions; its loaders (and the
 * access over them) are built when a step needs them and dropped after it (`release`).
 */
export interface LiveContext {
  hub: ChangeHub;
  tenant: string | null;
  /** The connection the subscription came over (a WebSocket, or an event stream's request). */
  connection: LiveConnection;
  /** CHANGE_RETENTION_HOURS, in ms. */
  resumeWithinMs: number;
  /** LIVE_QUEUE_LIMIT. */
  queueLimit: number;
  /** The checks of callers' grants on subtrees, one per caller every GRANTS_CACHE_MS (grantWatch.ts). */
  grants: GrantWatches;
  /** Whether the caller may read the node of a chain, as its grants were last read (set when it subscribes). */
  readable?: (chain: readonly string[]) => boolean;
  /** Drops the loaders and access built for the last step (subscribing, or a change delivered). */
  release(): void;
  /** Told of each change sent (when it committed) and of each subscriber closed for being slow (metrics). */
  observe?: { delivered(at: string): void; dropped(): void };
}

/**
 * One live connection's caller, authenticated once and again while it is open (credentialWatch.ts),
 * shared by its subscriptions.
 */
export interface LiveConnection {
  /** The caller as last checked. */
  readonly caller: Caller;
  /**
   * The caller to deliver the next event to: as last checked, or, once a check is due, after it.
   * Throws the refusal once the credentials no longer hold.
   */
  current(): Promise<Caller>;
  /** Adds a subscription to what a check of the credentials tells; answers its removal. */
  follow(subscriber: LiveSubscriber): () => void;
}

/** A subscription as its connection's credential checks see it. */
export interface LiveSubscriber {
  /**
   * Takes the caller, its credentials checked again (its grants may have changed since `before`),
   * or ends the subscription alone (it throws nothing).
   */
  accept(caller: Caller, before: Caller): Promise<void>;
  /** Ends the subscription with the refusal of the connection's credentials. */
  end(error: unknown): void;
}
