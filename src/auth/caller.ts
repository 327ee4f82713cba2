import { TENANT_PATTERN } from '../dynamodb/keys.js';
import { unauthenticated } from '../errors.js';
import { ADMIN_ALL, type Grants } from './grants.js';

/**
 * Who is calling, as authentication established it: how (`via`), who (`subject`, the token's
 * `sub` or the API key's id; null without authentication), in which tenant (`tenant`, the
 * token's tenant claim or the key's tenant; null: the default tenant) and what it may read and
 * write there (`grants`). Handed to every operation in its context.
 */
export interface Caller {
  via: 'none' | 'jwt' | 'apikey';
  subject: string | null;
  /** An API key's name (its id when it has none): who made a change, in history (`by`). */
  keyName?: string;
  tenant: string | null;
  grants: Grants;
  /**
   * The principals grants on subtrees name it by (principals.ts): `sub:<subject>`, one
   * `group:<group>` per value of its token's groups claim, or `key:<API key name>`.
   */
  principals: readonly string[];
  /**
   * When what authenticated this caller is no longer trusted, in ms since the epoch: a token's
   * `exp` (within the clock skew allowed), or when this process reads the API key's record
   * again. Absent: never (AUTH=none). An open subscription authenticates again then.
   */
  checkAgainAt?: number;
}

/** The caller of a server running with AUTH=none. */
export const ANONYMOUS: Caller = { via: 'none', subject: null, tenant: null, grants: ADMIN_ALL, principals: [] };

/** Pure: the tenant a claim names (absent: the default tenant); throws on a value no key can hold. */
export function tenantFrom(claim: unknown, claimName: string): string | null {
  if (claim === undefined || claim === null) return null;
  if (typeof claim !== 'string' || !TENANT_PATTERN.test(claim)) {
    throw unauthenticated(
      `the token's ${claimName} claim must be a tenant name of 1 to 64 letters, digits, '_', '.', ':' or '-'`,
    );
  }
  return claim;
}
