import cors from 'cors';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Cross-origin access to /graphql for browser apps served from other origins.
 *
 * Only the exact origins of CORS_ORIGINS are allowed (none when it is unset): for them the
 * response carries `Access-Control-Allow-Origin: <that origin>`; for every other origin it carries
 * no allow header, so the browser refuses to hand the response to the page. `Vary: Origin` is set
 * on every response, so that no cache serves one origin's answer to another.
 *
 * No credentials (cookies, HTTP auth) are allowed: the API has no sessions, and a page must call
 * it with `credentials: 'omit'` or `'same-origin'` (fetch's default).
 */

/**
 * What a browser app sends: JSON bodies, its credentials (AUTH), the headers of Apollo's CSRF
 * prevention, and the client name and version Apollo Client sends when its `clientAwareness` is set.
 */
export const CORS_ALLOWED_METHODS = ['GET', 'POST'] as const;
export const CORS_ALLOWED_HEADERS = [
  'content-type',
  'authorization',
  'x-api-key',
  'apollo-require-preflight',
  'x-apollo-operation-name',
  'apollographql-client-name',
  'apollographql-client-version',
] as const;
/** How long a browser may reuse a preflight answer (seconds; browsers cap it, Chrome at 7200). */
export const CORS_PREFLIGHT_MAX_AGE = 600;

/**
 * CORS_ORIGINS entries as browsers send them in `Origin` (scheme://host[:port], no path, no
 * trailing slash, default port dropped). Anything that is not an origin is refused at start,
 * since it could never match and would silently lock a browser app out.
 */
export function normalizeOrigins(origins: readonly string[]): string[] {
  return origins.map((raw) => {
    // scheme://host[:port] and at most a trailing slash: no user, path, query or fragment.
    const shaped = /^https?:\/\/[^/?#@\s]+\/?$/i.test(raw);
    let origin: string | undefined;
    try {
      origin = shaped ? new URL(raw).origin : undefined;
    } catch {
      origin = undefined;
    }
    if (origin === undefined || origin === 'null') {
      throw new Error(`CORS_ORIGINS: "${raw}" is not an origin (scheme://host[:port], e.g. https://app.example.com)`);
    }
    return origin;
  });
}

/** The CORS middleware for /graphql; answers preflights (OPTIONS) itself with 204. */
export function graphqlCors(
  origins: readonly string[],
): (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void {
  const allowed = normalizeOrigins(origins);
  const handler = cors({
    // Always an array (possibly empty): the package then reflects an allowed request origin
    // and sets `Vary: Origin`; `false` would skip CORS entirely and leave preflights to Apollo.
    origin: allowed,
    methods: [...CORS_ALLOWED_METHODS],
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    credentials: false,
    maxAge: CORS_PREFLIGHT_MAX_AGE,
    optionsSuccessStatus: 204,
  });
  return (req, res, next) => handler(req, res, next);
}
