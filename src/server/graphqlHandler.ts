import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import express from 'express';
import type { GraphQLFormattedError } from 'graphql';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticate } from '../auth/authenticate.js';
import type { Caller } from '../auth/caller.js';
import { badRequest, isTreeError, rateLimited } from '../errors.js';
import { graphqlCors } from './cors.js';
import { csrfRefusal } from './csrfRefusal.js';
import { tokenLimitRefusal, type OperationLimits } from './limitsPlugin.js';
import { createRateLimiter, type RateLimitSettings } from './rateLimit.js';
import { trustedQuery, type TrustedDocuments } from './trustedDocuments.js';
import { traceRequest } from './tracing.js';

type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
type Next = (error?: unknown) => void;
/** A request once the JSON body parser has run (`body` undefined when it was not JSON). */
type ParsedRequest = IncomingMessage & { body?: unknown };

export interface GraphqlHandlerOptions<TContext extends BaseContext> {
  corsOrigins: readonly string[];
  limits: OperationLimits;
  formatError: FormatError;
  /** Who the request comes from (AUTH), before its body is read. */
  authenticate: Authenticate;
  /** Per-caller rate limit (null: none). */
  rateLimit: RateLimitSettings | null;
  /** Trusted documents: the only operations that run (null: any). */
  trusted: TrustedDocuments | null;
  /** Every request gets its own context (caller, store, loaders, cost meter). */
  context: (caller: Caller) => Promise<TContext>;
}

/** The largest request body accepted (HTTP 413 beyond). */
export const MAX_BODY = '1mb';

/**
 * /graphql over plain `node:http`, the way Apollo's standalone server serves it: no router and no
 * framework objects on the path every operation takes. Two halves, so that the Express app can
 * put GraphiQL's GET routes between them:
 * - `prepare`: CORS (preflights answered here with 204), `Vary: Accept` (GET /graphql answers
 *   GraphiQL's page or JSON depending on Accept) and `cache-control: no-store` on every answer,
 *   refusals before any operation included;
 * - `execute`: CSRF prevention (HTTP 400 BAD_REQUEST naming the header to send; csrfRefusal.ts),
 *   authentication (HTTP 401 UNAUTHENTICATED, with `WWW-Authenticate`, before the body is read),
 *   the caller's rate limit (HTTP 429 RATE_LIMITED, with `Retry-After`), the JSON body (at most
 *   MAX_BODY), trusted documents when configured, the token limit, the operation's
 *   span, Apollo. Malformed or oversized bodies answer JSON errors, never an HTML page.
 * `handle` runs both, for the server's fast path.
 */
export function createGraphqlHandler<TContext extends BaseContext>(
  apollo: ApolloServer<TContext>,
  options: GraphqlHandlerOptions<TContext>,
) {
  const cors = graphqlCors(options.corsOrigins);
  // body-parser's JSON parser (Express's own), which needs nothing of Express's request object.
  const json = express.json({ limit: MAX_BODY }) as unknown as (
    req: IncomingMessage,
    res: ServerResponse,
    next: Next,
  ) => void;
  const { formatError } = options;

  const prepare = (req: IncomingMessage, res: ServerResponse, next: Next): void => {
    cors(req, res, (error?: unknown) => {
      if (error) return next(error);
      const vary = res.getHeader('vary');
      res.setHeader('vary', vary ? `${String(vary)}, Accept` : 'Accept');
      res.setHeader('cache-control', 'no-store');
      next();
    });
  };

  const refuse = (res: ServerResponse, status: number, error: unknown): void => {
    sendJson(res, status, { errors: [formatError({ message: 'Internal server error' }, error)] });
  };

  /** A body-parser failure (malformed JSON, too large, bad charset) as a JSON error. */
  const refuseBody = (res: ServerResponse, error: { status?: number; message?: string }): void => {
    const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 500;
    refuse(
      res,
      status,
      status === 500
        ? error
        : badRequest(status === 400 ? 'The request body is not valid JSON' : (error.message ?? 'Bad request')),
    );
  };

  const run = async (req: ParsedRequest, search: string, res: ServerResponse, caller: Caller): Promise<void> => {
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const answer = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: (req.method ?? 'GET').toUpperCase(), headers, search, body: req.body },
      context: () => options.context(caller),
    });
    for (const [key, value] of answer.headers) res.setHeader(key, value);
    res.statusCode = answer.status ?? 200;
    if (answer.body.kind === 'complete') {
      res.end(answer.body.string);
      return;
    }
    for await (const chunk of answer.body.asyncIterator) res.write(chunk);
    res.end();
  };

  /** Authentication's refusal: 401 with the scheme to use, or 503 when its keys cannot be read. */
  const refuseCaller = (res: ServerResponse, error: unknown): void => {
    if (isTreeError(error, 'UNAUTHENTICATED')) {
      res.setHeader('www-authenticate', 'Bearer realm="canopy"');
      return refuse(res, 401, error);
    }
    refuse(res, isTreeError(error, 'SERVICE_UNAVAILABLE') ? 503 : 500, error);
  };

  const limiter = options.rateLimit ? createRateLimiter(options.rateLimit) : null;
  const addressOf = (req: IncomingMessage) => `address:${req.socket.remoteAddress ?? '?'}`;
  const tooMany = (res: ServerResponse, retryAfter: number): void => {
    res.setHeader('retry-after', String(retryAfter));
    refuse(res, 429, rateLimited(retryAfter));
  };

  /**
   * A caller is its subject when authenticated, else its address. Failed authentications count
   * against the address: once its bucket is empty, the address is refused before authentication
   * (no token verified, no API key read).
   */
  const execute = (req: ParsedRequest, res: ServerResponse): void => {
    const blocked = limiter?.blocked(addressOf(req)) ?? null;
    if (blocked !== null) return tooMany(res, blocked);
    const forgeable = csrfRefusal(req.method, req.headers);
    if (forgeable) return refuse(res, 400, forgeable);
    options.authenticate(req.headers).then(
      (caller) => {
        const retryAfter =
          limiter?.take(caller.subject !== null ? `${caller.via}:${caller.subject}` : addressOf(req)) ?? null;
        if (retryAfter === null) return parseAndRun(req, res, caller);
        tooMany(res, retryAfter);
      },
      (error: unknown) => {
        if (isTreeError(error, 'UNAUTHENTICATED')) limiter?.take(addressOf(req));
        refuseCaller(res, error);
      },
    );
  };

  const parseAndRun = (req: ParsedRequest, res: ServerResponse, caller: Caller): void => {
    json(req, res, (error?: unknown) => {
      if (error) return refuseBody(res, error as { status?: number; message?: string });
      const target = req.url ?? '/';
      let search = target.includes('?') ? target.slice(target.indexOf('?')) : '';
      let query: unknown =
        req.method === 'GET'
          ? new URLSearchParams(search).get('query')
          : (req.body as { query?: unknown } | undefined)?.query;
      if (options.trusted) {
        const allowed = trustedQuery(options.trusted, query, persistedHashOf(req, search));
        if (typeof allowed !== 'string') return refuse(res, 400, allowed);
        if (query !== allowed) [query, search] = runText(req, search, allowed);
      }
      const tooLong = tokenLimitRefusal(options.limits, query);
      if (tooLong) return refuse(res, 400, tooLong);
      traceRequest(res, req.method ?? 'GET', () => {
        run(req, search, res, caller).catch((failure: unknown) => {
          if (res.headersSent) res.destroy();
          else refuse(res, 500, failure);
        });
      });
    });
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    prepare(req, res, (error?: unknown) => (error ? refuse(res, 500, error) : execute(req, res)));
  };

  return { prepare, execute, handle };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

/** The persisted query hash a request names (POST body or GET parameter), if any. */
function persistedHashOf(req: ParsedRequest, search: string): unknown {
  let extensions: unknown = (req.body as { extensions?: unknown } | undefined)?.extensions;
  if (req.method === 'GET') {
    try {
      extensions = JSON.parse(new URLSearchParams(search).get('extensions') ?? 'null');
    } catch {
      return undefined;
    }
  }
  return (extensions as { persistedQuery?: { sha256Hash?: unknown } } | null)?.persistedQuery?.sha256Hash;
}

/** A request sent by hash alone gets its trusted text, for Apollo to run (in the body, or the URL). */
function runText(req: ParsedRequest, search: string, text: string): [string, string] {
  if (req.method === 'GET') {
    const params = new URLSearchParams(search);
    params.set('query', text);
    return [text, `?${params.toString()}`];
  }
  (req.body as { query?: string }).query = text;
  return [text, search];
}
