import type { Caller } from '../auth/caller.js';
import { treeLevel } from '../auth/grants.js';
import type { Config } from '../config.js';
import { newCost, type DynamoCost } from '../dynamodb/costMeter.js';
import { HOUR_MS } from '../durations.js';
import { createAccess } from '../graphql/access.js';
import type { Context } from '../graphql/context.js';
import type { ChangeHub } from '../live/changeHub.js';
import { createLoaders } from '../loaders/createLoaders.js';
import type { TreeAdmin } from '../storage/treeStore.js';
import type { Metrics } from './metrics.js';

/** What an operation's resolvers get, and its DynamoDB cost meter, for the plugins. */
export type RequestContext = Context & { cost: DynamoCost; caller: Caller };

/** A subscription's context: the same as a request's, with what live updates need. */
export type SubscriptionContext = (caller: Caller, reauthenticate: () => Promise<Caller>) => Promise<Context>;

/** Every request gets its own store (its caller's tenant), loaders and DynamoDB cost meter. */
export function requestContexts(admin: TreeAdmin): (caller: Caller) => Promise<RequestContext> {
  return async (caller) => {
    const cost = newCost();
    // A caller whose credentials do not give it everything: every write checks and guards its
    // level where it writes (the resolvers' check is made before the write reads; the tree may
    // change in between), and grants on subtrees add to what its credentials give.
    const { grants, principals } = caller;
    const access =
      grants.all === 'admin' ? undefined : { trees: (root: string) => treeLevel(grants, root), principals };
    // Who makes the request's changes, for their records: the token's subject, or the key's name.
    const by = caller.keyName ?? caller.subject ?? undefined;
    const scoped = admin.store.scoped({ cost, tenant: caller.tenant, ...(access ? { access } : {}), by });
    const loaders = createLoaders(scoped);
    const returned = { nodes: 0 };
    const checks = createAccess(grants, scoped.access, loaders, principals);
    return { caller, store: scoped, loaders, access: checks, cost, returned };
  };
}

export interface SubscriptionContextOptions {
  /** A request's context, which a subscription's extends. */
  contextFor: (caller: Caller) => Promise<RequestContext>;
  hub: ChangeHub;
  config: Pick<Config, 'changeRetentionHours' | 'liveQueueLimit' | 'grantsCacheMs'>;
  metrics: Pick<Metrics, 'liveEvents' | 'liveLag' | 'liveDropped'>;
}

/** Every subscription's context: a request's, the hub, its limits, and what it tells the metrics. */
export function subscriptionContexts(options: SubscriptionContextOptions): SubscriptionContext {
  const { hub, config, metrics } = options;
  const observe = {
    delivered: (at: string) => {
      metrics.liveEvents.inc();
      metrics.liveLag.observe(Math.max(0, Date.now() - Date.parse(at)) / 1000);
    },
    dropped: () => metrics.liveDropped.inc(),
  };
  return async (caller, reauthenticate) => ({
    ...(await options.contextFor(caller)),
    live: {
      hub,
      tenant: caller.tenant,
      caller,
      reauthenticate,
      resumeWithinMs: config.changeRetentionHours * HOUR_MS,
      queueLimit: config.liveQueueLimit,
      grantsCacheMs: config.grantsCacheMs,
      observe,
    },
  });
}
