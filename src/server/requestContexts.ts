import type { Caller } from '../auth/caller.js';
import { treeLevel } from '../auth/grants.js';
import { newCost, type DynamoCost } from '../dynamodb/costMeter.js';
import { createAccess } from '../graphql/access.js';
import type { Context } from '../graphql/context.js';
import { createLoaders } from '../loaders/createLoaders.js';
import type { TreeAdmin, TreeStore } from '../storage/treeStore.js';

/** What an operation's resolvers get, and its DynamoDB cost meter, for the plugins. */
export type RequestContext = Context & { cost: DynamoCost; caller: Caller };

/** Every request gets its own store (its caller's tenant), loaders and DynamoDB cost meter. */
export function requestContexts(admin: TreeAdmin): (caller: Caller) => Promise<RequestContext> {
  return async (caller) => {
    const cost = newCost();
    const scoped = callerStore(admin, caller, cost);
    const loaders = createLoaders(scoped);
    const returned = { nodes: 0 };
    const checks = createAccess(caller.grants, scoped.access, loaders, caller.principals);
    return { caller, store: scoped, loaders, access: checks, cost, returned };
  };
}

/**
 * The store of a caller (its tenant), its calls added to `cost`. A caller whose credentials do
 * not give it everything: every write checks and guards its level where it writes (the
 * resolvers' check is made before the write reads; the tree may change in between), and grants
 * on subtrees add to what its credentials give.
 */
export function callerStore(admin: TreeAdmin, caller: Caller, cost: DynamoCost): TreeStore {
  const { grants, principals } = caller;
  const access = grants.all === 'admin' ? undefined : { trees: (root: string) => treeLevel(grants, root), principals };
  // Who makes the caller's changes, for their records: the token's subject, or the key's name.
  const by = caller.keyName ?? caller.subject ?? undefined;
  return admin.store.scoped({ cost, tenant: caller.tenant, ...(access ? { access } : {}), by });
}
