import type { StoreAccess } from '../../treeStore.js';
import { grantedIn } from '../access/callerAccess.js';
import type { EngineContext } from '../core/engineContext.js';
import { grantAccess, revokeAccess } from './grantAccess.js';
import { grantsOn, sharedTops } from './sharedTops.js';

/**
 * The store's access (TreeStore.access) over the engine's: what the caller's grants give, and
 * the grants on subtrees. A store without a caller's access (AUTH=none, credentials that give
 * everything) holds no grant of the caller's.
 */
export function storeAccess(ctx: EngineContext): StoreAccess {
  const { access } = ctx;
  return {
    unlimited: access === undefined,
    grantedOn: async (chain) => (access ? grantedIn(await access.held(), chain) : null),
    async grantedLevels() {
      const held = access ? await access.held() : new Map();
      return (chain) => grantedIn(held, chain);
    },
    forget: () => access?.forget(),
    grantedIds: async () => (access ? [...(await access.held()).keys()] : []),
    grantsOn: (nodeId) => grantsOn(ctx, nodeId),
    // What this request reads of the caller's own grants next is read again.
    grant: (nodeId, principal, level) => grantAccess(ctx, nodeId, principal, level).finally(() => access?.forget()),
    revoke: (nodeId, principal) => revokeAccess(ctx, nodeId, principal).finally(() => access?.forget()),
    sharedTops: async (first, after) => sharedTops(ctx, access ? await access.held() : new Map(), first, after),
  };
}
