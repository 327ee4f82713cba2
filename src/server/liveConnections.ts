import type { Caller } from '../auth/caller.js';
import { watchCredentials } from '../auth/credentialWatch.js';
import type { Config } from '../config.js';
import { newCost } from '../dynamodb/costMeter.js';
import { HOUR_MS } from '../durations.js';
import { unauthenticated } from '../errors.js';
import { createAccess, type Access } from '../graphql/access.js';
import type { Context, LiveConnection, LiveContext, LiveSubscriber } from '../graphql/context.js';
import { grantWatches } from '../graphql/grantWatch.js';
import type { ChangeHub } from '../live/changeHub.js';
import { createLoaders, type Loaders } from '../loaders/createLoaders.js';
import type { TreeAdmin, TreeStore } from '../storage/treeStore.js';
import type { Metrics } from './metrics.js';
import { callerStore } from './requestContexts.js';

/**
 * The contexts of live subscriptions. A connection (a WebSocket; an event stream's request) has
 * one caller, authenticated at its first subscription and again while it is open
 * (credentialWatch.ts), and one store; each of its subscriptions gets a light context over them,
 * with loaders built for one step at a time. Nothing is shared between connections but the
 * checks of a caller's grants on subtrees (grantWatch.ts).
 */
export interface LiveConnections {
  /**
   * A subscription's context on connection `key`, and its caller: the connection's, its
   * credentials authenticated (`authenticate`) the first time, or again when they no longer hold.
   * Throws the refusal of authentication.
   */
  subscribe(key: object, authenticate: () => Promise<Caller>): Promise<{ caller: Caller; context: Context }>;
  /** A connection closed: its credentials are checked no more. */
  closed(key: object): void;
}

export interface LiveConnectionsOptions {
  admin: TreeAdmin;
  hub: ChangeHub;
  config: Pick<Config, 'changeRetentionHours' | 'liveQueueLimit' | 'grantsCacheMs'>;
  metrics: Pick<Metrics, 'liveEvents' | 'liveLag' | 'liveDropped'>;
}

/** What every subscription's LiveContext holds the same. */
type LiveSettings = Omit<LiveContext, 'tenant' | 'connection' | 'readable' | 'release'>;

export function liveConnections(options: LiveConnectionsOptions): LiveConnections {
  const { admin, config, metrics } = options;
  const settings: LiveSettings = {
    hub: options.hub,
    resumeWithinMs: config.changeRetentionHours * HOUR_MS,
    queueLimit: config.liveQueueLimit,
    grants: grantWatches({
      storeFor: (caller) => callerStore(admin, caller, newCost()),
      everyMs: config.grantsCacheMs,
    }),
    observe: {
      delivered: (at: string) => {
        metrics.liveEvents.inc();
        metrics.liveLag.observe(Math.max(0, Date.now() - Date.parse(at)) / 1000);
      },
      dropped: () => metrics.liveDropped.inc(),
    },
  };
  const open = new WeakMap<object, Promise<Connection>>();
  const connectionOf = async (key: object, authenticate: () => Promise<Caller>): Promise<Connection> => {
    const held = await open.get(key)?.catch(() => undefined);
    if (held && (await held.holds())) return held;
    held?.close();
    const made = openConnection(admin, authenticate);
    open.set(key, made);
    void made.catch(() => open.get(key) === made && open.delete(key));
    return made;
  };
  return {
    async subscribe(key, authenticate) {
      const connection = await connectionOf(key, authenticate);
      return { caller: connection.caller, context: new SubscriptionContext(connection, settings) };
    },
    closed(key) {
      void open.get(key)?.then(
        (connection) => connection.close(),
        () => {},
      );
      open.delete(key);
    },
  };
}

/** A connection as its subscriptions share it. */
interface Connection extends LiveConnection {
  readonly store: TreeStore;
  /** Whether its credentials still hold (checked again when due). */
  holds(): Promise<boolean>;
  /** Stops checking its credentials. */
  close(): void;
}

/** A connection's caller and store, its credentials checked again for all its subscriptions at once. */
async function openConnection(admin: TreeAdmin, authenticate: () => Promise<Caller>): Promise<Connection> {
  let caller = await authenticate();
  const store = callerStore(admin, caller, newCost());
  const followers = new Set<LiveSubscriber>();
  const credentials = watchCredentials({
    caller,
    authenticate,
    accept: async (fresh, before) => {
      // Each subscription takes the new grants or ends alone; another tenant ends them all.
      await Promise.all([...followers].map((follower) => follower.accept(fresh, before)));
      if (fresh.tenant !== before.tenant) throw unauthenticated('the credentials name another tenant');
      caller = fresh;
    },
  });
  void credentials.ended.then((error) => {
    for (const follower of followers) follower.end(error);
  });
  return {
    get caller() {
      return caller;
    },
    store,
    current: () => credentials.current(),
    follow(follower) {
      followers.add(follower);
      return () => followers.delete(follower);
    },
    holds: () =>
      credentials.current().then(
        () => true,
        () => false,
      ),
    close: () => credentials.stop(),
  };
}

/** One subscription's context: its connection's caller and store, and its loaders and access for one step. */
class SubscriptionContext implements Context {
  readonly live: LiveContext;
  #loaders: Loaders | undefined;
  #access: Access | undefined;

  constructor(
    private readonly connection: Connection,
    settings: LiveSettings,
  ) {
    this.live = { ...settings, tenant: connection.caller.tenant, connection, release: () => this.release() };
  }

  get store(): TreeStore {
    return this.connection.store;
  }

  get loaders(): Loaders {
    return (this.#loaders ??= createLoaders(this.store));
  }

  get access(): Access {
    const { grants, principals } = this.connection.caller;
    return (this.#access ??= createAccess(grants, this.store.access, this.loaders, principals));
  }

  private release(): void {
    this.#loaders = undefined;
    this.#access = undefined;
  }
}
