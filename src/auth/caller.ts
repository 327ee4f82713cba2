import { WRITE_ALL, type Grants } from './grants.js';

/**
 * Who is calling, as authentication established it: how (`via`), who (`subject`, the token's
 * `sub` or the API key's id; null without authentication) and what it may read and write
 * (`grants`). Handed to every operation in its context.
 */
export interface Caller {
  via: 'none' | 'jwt' | 'apikey';
  subject: string | null;
  grants: Grants;
}

/** The caller of a server running with AUTH=none. */
export const ANONYMOUS: Caller = { via: 'none', subject: null, grants: WRITE_ALL };
