import {
  HeaderMap,
  type ApolloServer,
  type BaseContext,
  type HTTPGraphQLRequest,
  type HTTPGraphQLResponse,
} from '@apollo/server';
import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from '../auth/caller.js';
import { isTreeError } from '../errors.js';
import type { Admission } from './admission.js';
import { graphqlCors } from './cors.js';
import { csrfRefusal } from './csrfRefusal.js';
import { httpRefusals, type BodyError, type FormatError, type HttpRefusals } from './httpRefusals.js';
import { createRateLimiter, type RateLimitSettings } from './rateLimit.js';
import { traceRequest } from './tracing.js';

type Next = (error?: unknown) => void;
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
/** body-parser's JSON parser (Express's own), which needs nothing of Express's request object. */
type BodyParser = (req: IncomingMessage, res: ServerResponse, next: Next) => void;
/** A request once the JSON body parser has run (`body` undefined when it was not JSON). */
type ParsedRequest = IncomingMessage & { body?: unknown };
/** What runs a request once its caller is admitted. */
type CallerNext = (req: ParsedRequest, res: ServerResponse, caller: Caller) => void;

export interface GraphqlHandlerOptions<TContext extends BaseContext> {
  corsOrigins: readonly string[];
  formatError: FormatError;
  /** How an operation is admitted (admission.ts): its caller before its body is read, then its text. */
  admission: Admission;
  /** Per-caller rate limit (null: none). */
  rateLimit: RateLimitSettings | null;
  /** Every request gets its own context (caller, store, loaders, cost meter). */
  context: (caller: Caller) => Promise<TContext>;
}

/** /graphql's handler: two halves, and both at once. */
export interface GraphqlHandler {
  /** CORS, `Vary: Accept`, `cache-control: no-store`. */
  prepare: (req: IncomingMessage, res: ServerResponse, next: Next) => void;
  /** The caller's admission, then the operation's. */
  execute: Handler;
  /** `prepare`, then `execute`. */
  handle: Handler;
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
): GraphqlHandler {
  const refusals = httpRefusals(options.formatError);
  const prepare = prepareResponse(graphqlCors(options.corsOrigins));
  const runOperation = operationRunner(apollo, { ...options, refusals });
  const execute = callerGate({ ...options, refusals, next: runOperation });
  const handle: Handler = (req, res) => {
    prepare(req, res, (error?: unknown) => (error ? refusals.refuse(res, 500, error) : execute(req, res)));
  };
  return { prepare, execute, handle };
}

/** CORS, then `Vary: Accept` and `cache-control: no-store` on whatever answers. */
function prepareResponse(cors: ReturnType<typeof graphqlCors>) {
  return (req: IncomingMessage, res: ServerResponse, next: Next): void => {
    cors(req, res, (error?: unknown) => {
      if (error) return next(error);
      const vary = res.getHeader('vary');
      res.setHeader('vary', vary ? `${String(vary)}, Accept` : 'Accept');
      res.setHeader('cache-control', 'no-store');
      next();
    });
  };
}

/** A request's address, the rate limit's key for a caller who is nobody. */
const addressOf = (req: IncomingMessage) => `address:${req.socket.remoteAddress ?? '?'}`;

/**
 * The caller's admission, before the body is read: the rate limit, CSRF prevention, then
 * authentication. A caller is its subject when authenticated, else its address. Failed
 * authentications count against the address: once its bucket is empty, the address is refused
 * before authentication (no token verified, no API key read).
 */
function callerGate(options: {
  admission: Admission;
  rateLimit: RateLimitSettings | null;
  refusals: HttpRefusals;
  next: CallerNext;
}): Handler {
  const { admission, refusals } = options;
  const limiter = options.rateLimit ? createRateLimiter(options.rateLimit) : null;
  return (req, res) => {
    const blocked = limiter?.blocked(addressOf(req)) ?? null;
    if (blocked !== null) return refusals.tooMany(res, blocked);
    const forgeable = csrfRefusal(req.method, req.headers);
    if (forgeable) return refusals.refuse(res, 400, forgeable);
    admission.caller(req.headers).then(
      (caller) => {
        const retryAfter =
          limiter?.take(caller.subject !== null ? `${caller.via}:${caller.subject}` : addressOf(req)) ?? null;
        if (retryAfter === null) return options.next(req, res, caller);
        refusals.tooMany(res, retryAfter);
      },
      (error: unknown) => {
        if (isTreeError(error, 'UNAUTHENTICATED')) limiter?.take(addressOf(req));
        refusals.refuseCaller(res, error);
      },
    );
  };
}

/** An admitted caller's operation: the JSON body, the text it may run (admission.ts), its span, Apollo. */
function operationRunner<TContext extends BaseContext>(
  apollo: ApolloServer<TContext>,
  options: Pick<GraphqlHandlerOptions<TContext>, 'admission' | 'context'> & { refusals: HttpRefusals },
): CallerNext {
  const { admission, refusals } = options;
  const json = express.json({ limit: MAX_BODY }) as unknown as BodyParser;
  const run = async (req: ParsedRequest, search: string, res: ServerResponse, caller: Caller): Promise<void> => {
    const answer = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: apolloRequest(req, search),
      context: () => options.context(caller),
    });
    await writeAnswer(res, answer);
  };
  return (req, res, caller) => {
    json(req, res, (error?: unknown) => {
      if (error) return refusals.refuseBody(res, error as BodyError);
      let search = searchOf(req);
      const query = queryOf(req, search);
      const admitted = admission.text(query, persistedHashOf(req, search));
      if ('refused' in admitted) return refusals.refuse(res, 400, admitted.refused);
      if (typeof admitted.query === 'string' && admitted.query !== query) search = runText(req, search, admitted.query);
      traceRequest(res, req.method ?? 'GET', () => {
        run(req, search, res, caller).catch((failure: unknown) => {
          if (res.headersSent) res.destroy();
          else refusals.refuse(res, 500, failure);
        });
      });
    });
  };
}

/** Pure: a request as Apollo reads it. */
function apolloRequest(req: ParsedRequest, search: string): HTTPGraphQLRequest {
  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  return { method: (req.method ?? 'GET').toUpperCase(), headers, search, body: req.body };
}

/** Apollo's answer written to the response, streamed when it comes in parts. */
async function writeAnswer(res: ServerResponse, answer: HTTPGraphQLResponse): Promise<void> {
  for (const [key, value] of answer.headers) res.setHeader(key, value);
  res.statusCode = answer.status ?? 200;
  if (answer.body.kind === 'complete') {
    res.end(answer.body.string);
    return;
  }
  for await (const chunk of answer.body.asyncIterator) res.write(chunk);
  res.end();
}

/** The request's query string, `?` included ('' for none). */
function searchOf(req: ParsedRequest): string {
  const target = req.url ?? '/';
  return target.includes('?') ? target.slice(target.indexOf('?')) : '';
}

/** The query text a request sends (GET parameter or POST body), if any. */
function queryOf(req: ParsedRequest, search: string): unknown {
  return req.method === 'GET'
    ? new URLSearchParams(search).get('query')
    : (req.body as { query?: unknown } | undefined)?.query;
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

/** A request sent by hash alone gets its trusted text, for Apollo to run (in the body; for a GET, its new search). */
function runText(req: ParsedRequest, search: string, text: string): string {
  if (req.method === 'GET') {
    const params = new URLSearchParams(search);
    params.set('query', text);
    return `?${params.toString()}`;
  }
  (req.body as { query?: string }).query = text;
  return search;
}
