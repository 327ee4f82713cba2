import { z } from 'zod';
import { decoderOf } from '../../../dynamodb/decodeItem.js';
import {
  GRANT_SK_PREFIX,
  ITEM_KEY,
  NODE_PK_PREFIX,
  PRINCIPAL_PK_PREFIX,
  PRINCIPAL_SK,
  type Item,
  type Key,
} from '../../../dynamodb/keys.js';
import type { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import type { AccessLevel, Grant } from '../../treeStore.js';

/**
 * Pure. The grants on subtrees as the table keeps them, each in two items written together:
 * the grant on its node (pk N#<nodeId>, sk G#<principal>), which `Node.grants` lists with one
 * Query, and an attribute `g:<nodeId>` of its principal's item (pk P#<principal>, sk GRANTS),
 * so that a caller's grants are one BatchGetItem of its principals' items, and a write checks
 * the one it relies on with a condition on that attribute.
 */

/** The grants one principal may hold (its item stays far below DynamoDB's 400 KB). */
export const MAX_GRANTS_PER_PRINCIPAL = 1000;

const LEVEL = z.enum(['read', 'write', 'admin']);

export const GRANT_ITEM = ITEM_KEY.extend({
  nodeId: z.string(),
  principal: z.string(),
  level: LEVEL,
  grantedBy: z.string().nullable(),
  at: z.string(),
});

/** A principal's item: its grants' count (`n`) and one `g:<nodeId>` attribute a grant. */
export const PRINCIPAL_ITEM = ITEM_KEY.extend({ n: z.number() }).catchall(z.unknown());

const decodeGrant = decoderOf(GRANT_ITEM);

export const grantKey = (nodeId: string, principal: string): Key => ({
  pk: `${NODE_PK_PREFIX}${nodeId}`,
  sk: `${GRANT_SK_PREFIX}${principal}`,
});

export const principalKey = (principal: string): Key => ({
  pk: `${PRINCIPAL_PK_PREFIX}${principal}`,
  sk: PRINCIPAL_SK,
});

/** The attribute of a principal's item that holds its grant on node `nodeId`. */
export const grantAttribute = (nodeId: string): string => `g:${nodeId}`;

const ATTRIBUTE_PREFIX = 'g:';

/** The grants a principal's item holds: node id to level (an attribute of another form is passed over). */
export function grantsOfPrincipal(item: Item): Map<string, AccessLevel> {
  const grants = new Map<string, AccessLevel>();
  for (const [name, value] of Object.entries(item)) {
    const level = LEVEL.safeParse(value);
    if (name.startsWith(ATTRIBUTE_PREFIX) && level.success) grants.set(name.slice(ATTRIBUTE_PREFIX.length), level.data);
  }
  return grants;
}

/** A grant item as the API answers it. */
export function grantOfItem(item: Item): Grant {
  const { nodeId, principal, level, grantedBy, at } = decodeGrant(item);
  return { nodeId, principal, level, grantedBy, at };
}

/**
 * Plans a grant: its item put, its principal's attribute set. `previous`: the level of the
 * grant it replaces (null: none), which both items must still hold; a new grant counts one more
 * of its principal's, refused past MAX_GRANTS_PER_PRINCIPAL.
 */
export function planGrant(tx: TransactionBuilder, grant: Grant, previous: AccessLevel | null): void {
  const key = grantKey(grant.nodeId, grant.principal);
  const attribute = grantAttribute(grant.nodeId);
  tx.put({ ...key, ...grant }, previous === null ? { notExists: true } : { equals: ['level', previous] });
  if (previous === null) {
    tx.update(
      principalKey(grant.principal),
      { set: { [attribute]: grant.level }, add: { n: 1 } },
      { missing: attribute },
      { missingOrBelow: ['n', MAX_GRANTS_PER_PRINCIPAL] },
    );
  } else {
    tx.update(principalKey(grant.principal), { set: { [attribute]: grant.level } }, { equals: [attribute, previous] });
  }
}

/** Plans a revoke of a grant at `level`: both items must still hold it. */
export function planRevoke(tx: TransactionBuilder, nodeId: string, principal: string, level: AccessLevel): void {
  tx.delete(grantKey(nodeId, principal), { equals: ['level', level] });
  const attribute = grantAttribute(nodeId);
  tx.update(principalKey(principal), { remove: [attribute], add: { n: -1 } }, { equals: [attribute, level] });
}

/** Plans the check that `principal` still holds its grant on `nodeId` at `level`. */
export function planGrantHeld(tx: TransactionBuilder, principal: string, nodeId: string, level: AccessLevel): void {
  tx.check(principalKey(principal), { equals: [grantAttribute(nodeId), level] });
}
