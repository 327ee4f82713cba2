/**
 * Who is calling, as authentication established it: how (`via`) and who (`subject`, the token's
 * `sub` or the API key's id; null without authentication). Handed to every operation in its
 * context.
 */
export interface Caller {
  via: 'none' | 'jwt' | 'apikey';
  subject: string | null;
}

/** The caller of a server running with AUTH=none. */
export const ANONYMOUS: Caller = { via: 'none', subject: null };
