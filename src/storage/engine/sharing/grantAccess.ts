import { LEVELS } from '../../../auth/grants.js';
import { checkPrincipal } from '../../../auth/principals.js';
import { batchGetItems } from '../../../dynamodb/batchGet.js';
import { keyString } from '../../../dynamodb/keys.js';
import { badInput, TreeError } from '../../../errors.js';
import type { AccessLevel, Grant } from '../../treeStore.js';
import { checkId } from '../../validation.js';
import {
  grantAttribute,
  grantKey,
  grantOfItem,
  MAX_GRANTS_PER_PRINCIPAL,
  planGrant,
  planRevoke,
  principalKey,
} from '../access/grantItems.js';
import type { EngineContext } from '../core/engineContext.js';
import { replanning } from '../core/replan.js';
import { commitWrite } from '../guard/guardedTransaction.js';
import { GuardedNode } from '../writes/guard/guardedNode.js';

/**
 * grantAccess: `level` on node `nodeId` to `principal`, inherited by the node's subtree (or its
 * grant there changed to `level`). The caller needs `admin` on the node: checked on the chain it
 * reads the node in, and kept, with the node where it was read, by the transaction that writes
 * the grant (GuardedNode), so that a concurrent revoke of the caller's own grant, or a move of
 * the node out of the subtree it administers, fails the write, which then plans again.
 */
export async function grantAccess(
  ctx: EngineContext,
  nodeId: string,
  principal: string,
  level: AccessLevel,
): Promise<Grant> {
  checkId(nodeId, 'nodeId');
  checkPrincipal(principal);
  if (!LEVELS.includes(level)) throw badInput('level must be READ, WRITE or ADMIN', { field: 'level' });
  return replanning(async () => {
    const guard = await GuardedNode.read(ctx, { id: nodeId, doing: `granting access to "${nodeId}"`, level: 'admin' });
    const { previous, count } = await readGrantee(ctx, nodeId, principal);
    if (previous === null && count >= MAX_GRANTS_PER_PRINCIPAL) {
      throw new TreeError('LIMIT_EXCEEDED', `${principal} holds ${count} grants, the most one principal may hold`, {
        limit: MAX_GRANTS_PER_PRINCIPAL,
      });
    }
    const grant: Grant = { nodeId, principal, level, grantedBy: ctx.by ?? null, at: new Date().toISOString() };
    await commitWrite(
      ctx,
      guard.transaction((tx) => planGrant(tx, grant, previous)),
    );
    return grant;
  });
}

/**
 * revokeAccess: `principal`'s grant on node `nodeId` removed (`admin` needed there, checked and
 * kept as grantAccess does); false when it had none.
 */
export async function revokeAccess(ctx: EngineContext, nodeId: string, principal: string): Promise<boolean> {
  checkId(nodeId, 'nodeId');
  checkPrincipal(principal);
  return replanning(async () => {
    const guard = await GuardedNode.read(ctx, { id: nodeId, doing: `revoking access to "${nodeId}"`, level: 'admin' });
    const { previous } = await readGrantee(ctx, nodeId, principal);
    if (previous === null) return false;
    await commitWrite(
      ctx,
      guard.transaction((tx) => planRevoke(tx, nodeId, principal, previous)),
    );
    return true;
  });
}

/** The grantee's grant on the node (its level, null: none) and how many it holds: one BatchGetItem. */
async function readGrantee(
  ctx: EngineContext,
  nodeId: string,
  principal: string,
): Promise<{ previous: AccessLevel | null; count: number }> {
  const items = await batchGetItems(ctx.doc, ctx.table, [grantKey(nodeId, principal), principalKey(principal)]);
  const grant = items.get(keyString(grantKey(nodeId, principal)));
  const own = items.get(keyString(principalKey(principal)));
  const previous = grant ? grantOfItem(grant).level : null;
  // The principal's item is the one its conditions are on: what it says wins.
  const held = own?.[grantAttribute(nodeId)];
  return {
    previous: LEVELS.includes(held as AccessLevel) ? (held as AccessLevel) : previous,
    count: typeof own?.n === 'number' ? own.n : 0,
  };
}
