import type { Caller } from '../auth/caller.js';
import { canRead, canWrite } from '../auth/grants.js';
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
    // A caller who may write only some trees: every write checks and guards its tree (the
    // resolvers' check is made before the write reads; the tree may change in between).
    const { grants } = caller;
    const access =
      grants.all === 'write'
        ? undefined
        : (root: string) => (canWrite(grants, root) ? 'write' : canRead(grants, root) ? 'read' : null);
    // Who makes the request's changes, for their records: the token's subject, or the key's name.
    const by = caller.keyName ?? caller.subject ?? undefined;
    const scoped = admin.store.scoped({ cost, tenant: caller.tenant, treeAccess: access, by });
    const loaders = createLoaders(scoped);
    const returned = { nodes: 0 };
    return { caller, store: scoped, loaders, access: createAccess(caller.grants, loaders), cost, returned };
  };
}

export interface SubscriptionContextOptions {
  /** A request's context, which a subscription's extends. */
  contextFor: (caller: Caller) => Promise<RequestContext>;
  hub: ChangeHub;
  config: Pick<Config, 'changeRetentionHours' | 'liveQueueLimit'>;
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
      observe,
    },
  });
}
