import type { IncomingHttpHeaders } from 'node:http';
import { badRequest, type TreeError } from '../errors.js';

/**
 * CSRF prevention, answered before authentication, with a message that says what to send.
 *
 * A browser sends a cross-site request without asking the server first (no CORS preflight) only
 * when it is a GET, or a POST whose content type an HTML form can produce: none,
 * `application/x-www-form-urlencoded`, `multipart/form-data` or `text/plain`. Such a request must
 * carry a header that only a script can add (`apollo-require-preflight` or
 * `x-apollo-operation-name`), or it is refused before anything runs. The rule is Apollo's
 * (`csrfPrevention`, which stays on behind this one); its refusal is a paragraph and, outside
 * production, a stack, and it is the first thing `curl -d` without a content type meets.
 */
export const PREFLIGHT_HEADERS = ['apollo-require-preflight', 'x-apollo-operation-name'] as const;

/** The content types of a request a browser sends cross-site without a preflight. */
const SIMPLE_CONTENT_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

export const CSRF_POST_MESSAGE =
  'send the body as JSON with the header content-type: application/json (a form post could come from another site)';
export const CSRF_GET_MESSAGE =
  'add the header apollo-require-preflight: true to a GET, or POST the query as JSON with the header ' +
  'content-type: application/json (a plain link could come from another site)';

/** The refusal of a request a cross-site page could have sent, or null when it may run. */
export function csrfRefusal(method: string | undefined, headers: IncomingHttpHeaders): TreeError<'BAD_REQUEST'> | null {
  const contentType = headers['content-type'];
  // As Apollo reads it: the type and subtype, without parameters. A type that is none of the
  // simple ones (application/json, or one that does not parse) makes a browser ask first.
  if (contentType !== undefined && !SIMPLE_CONTENT_TYPES.has(essence(contentType))) return null;
  if (PREFLIGHT_HEADERS.some((name) => String(headers[name] ?? '').length > 0)) return null;
  const linkLike = method === 'GET' || method === 'HEAD';
  return badRequest(linkLike ? CSRF_GET_MESSAGE : CSRF_POST_MESSAGE);
}

/** `text/plain; charset=utf-8` → `text/plain`. */
function essence(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}
