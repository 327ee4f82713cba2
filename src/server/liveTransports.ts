import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  getOperationAST,
  GraphQLError,
  OperationTypeNode,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/http';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Authenticate } from '../auth/authenticate.js';
import type { Caller } from '../auth/caller.js';
import { isTreeError, TreeError } from '../errors.js';
import type { Context } from '../graphql/context.js';
import { armorRules } from './armorRules.js';
import { DEFAULT_LIMITS, tokenLimitRefusal } from './limitsPlugin.js';
import type { Metrics } from './metrics.js';
import { trustedQuery, type TrustedDocuments } from './trustedDocuments.js';

/**
 * GraphQL subscriptions at /graphql, over WebSocket (graphql-ws, on the HTTP server's upgrade)
 * and over Server-Sent Events (graphql-sse: a request that accepts text/event-stream). Both
 * admit an operation the same way (`admit`): the caller authenticated with the same modes as
 * HTTP (WebSocket: the connection_init payload's `authorization` or `x-api-key`; SSE: the
 * request's headers), trusted documents and the operation limits as for HTTP, subscriptions
 * only (queries and mutations go over POST), and the limits of live subscriptions per caller
 * and per connection, and of connections per process. While a subscription is open, its
 * credentials are authenticated again the same way (subscription.resolver.ts). On close, every WebSocket gets 1012
 * (service restart: reconnect and resume from the last cursor) and every event stream ends.
 */
export interface LiveTransportOptions {
  schema: GraphQLSchema;
  authenticate: Authenticate;
  trusted: TrustedDocuments | null;
  /**
   * The context of one subscription of `caller` (its store, loaders, grants, and the hub), and
   * how its credentials are authenticated again while it is open.
   */
  contextFor(caller: Caller, reauthenticate: () => Promise<Caller>): Promise<Context>;
  /** An error as clients see it (formatError.ts). */
  formatError(error: GraphQLError): GraphQLError;
  limits: { connections: number; perCaller: number; perConnection: number };
  metrics: Metrics;
}

export interface LiveTransports {
  /** Whether an HTTP request is for the event-stream handler. */
  wantsEvents(req: IncomingMessage): boolean;
  /** Serves an event-stream request (GraphQL over SSE). */
  serveEvents(req: IncomingMessage, res: ServerResponse): void;
  /** Ends every subscription, telling clients to reconnect (before the HTTP server drains). */
  stopping(): void;
  /** Releases the WebSocket server (after the HTTP server has drained). */
  close(): Promise<void>;
}

/** WebSocket close code for a server going away for a restart: clients reconnect and resume. */
export const RESTART_CLOSE_CODE = 1012;

export function createLiveTransports(httpServer: Server, options: LiveTransportOptions): LiveTransports {
  const perCaller = new Map<string, number>();
  const callerKey = (caller: Caller) => `${caller.tenant ?? ''}\u0000${caller.subject ?? ''}`;
  const { metrics } = options;

  /** The execution of one subscription, or the errors that refuse it. */
  async function admit(
    headers: IncomingHttpHeaders,
    params: { query?: unknown; variables?: unknown; operationName?: unknown; extensions?: unknown },
  ): Promise<{ args: ExecutionArgs; release: () => void } | { errors: GraphQLError[] }> {
    try {
      const caller = await options.authenticate(headers);
      const hash = (params.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery
        ?.sha256Hash;
      let query = params.query;
      if (options.trusted) {
        const allowed = trustedQuery(options.trusted, query, hash);
        if (typeof allowed !== 'string') throw allowed;
        query = allowed;
      }
      if (typeof query !== 'string') throw new TreeError('BAD_REQUEST', 'the operation has no query');
      const tooLong = tokenLimitRefusal(DEFAULT_LIMITS, query);
      if (tooLong) throw tooLong;
      const document: DocumentNode = parse(query, { maxTokens: DEFAULT_LIMITS.maxTokens });
      const errors = validate(options.schema, document, [...specifiedRules, ...armorRules(DEFAULT_LIMITS)]);
      if (errors.length > 0) return { errors: errors.map((error) => options.formatError(error)) };
      const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
      if (getOperationAST(document, operationName)?.operation !== OperationTypeNode.SUBSCRIPTION)
        throw new TreeError(
          'BAD_REQUEST',
          'only subscriptions go over this transport; send queries and mutations as POST',
        );
      const key = callerKey(caller);
      const held = perCaller.get(key) ?? 0;
      if (held >= options.limits.perCaller)
        throw new TreeError('LIMIT_EXCEEDED', `a caller may hold ${options.limits.perCaller} live subscriptions`, {
          limit: options.limits.perCaller,
        });
      perCaller.set(key, held + 1);
      metrics.liveSubscriptions.inc();
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        metrics.liveSubscriptions.dec();
        const left = (perCaller.get(key) ?? 1) - 1;
        if (left > 0) perCaller.set(key, left);
        else perCaller.delete(key);
      };
      return {
        args: {
          schema: options.schema,
          document,
          operationName,
          variableValues: (params.variables ?? undefined) as Record<string, unknown> | undefined,
          // The same authentication of the same credentials: an open subscription is checked as a request is.
          contextValue: await options.contextFor(caller, () => options.authenticate(headers)),
        },
        release,
      };
    } catch (error) {
      return { errors: [options.formatError(asGraphQLError(error))] };
    }
  }

  // GraphQL over WebSocket.
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql' });
  // The releases of each connection's subscriptions, by id: on completion, and on close for any left.
  const releases = new WeakMap<object, Map<string, () => void>>();
  const releasesOf = (ctx: object) => {
    let held = releases.get(ctx);
    if (!held) releases.set(ctx, (held = new Map<string, () => void>()));
    return held;
  };
  const disposable = useServer(
    {
      schema: options.schema,
      onConnect: () => {
        if (wsServer.clients.size > options.limits.connections) return false;
        metrics.liveConnections.inc();
        return true;
      },
      onClose: (ctx) => {
        for (const release of releasesOf(ctx).values()) release();
        releases.delete(ctx);
      },
      onDisconnect: () => metrics.liveConnections.dec(),
      onSubscribe: async (ctx, id, payload) => {
        if (releasesOf(ctx).size >= options.limits.perConnection)
          return [
            options.formatError(
              asGraphQLError(
                new TreeError(
                  'LIMIT_EXCEEDED',
                  `a connection may hold ${options.limits.perConnection} live subscriptions`,
                  { limit: options.limits.perConnection },
                ),
              ),
            ),
          ];
        const admitted = await admit(headersOf(ctx.connectionParams), payload);
        if ('errors' in admitted) return admitted.errors;
        releasesOf(ctx).set(id, admitted.release);
        return admitted.args;
      },
      onComplete: (ctx, id) => {
        releasesOf(ctx).get(id)?.();
        releasesOf(ctx).delete(id);
      },
      onNext: (_ctx, _id, _payload, _args, result) => formatted(result, (error) => options.formatError(error)),
    },
    wsServer,
  );

  // GraphQL over Server-Sent Events (distinct connections: one request per subscription).
  const streams = new Set<ServerResponse>();
  const sse = createHandler<Context & Record<PropertyKey, unknown>>({
    schema: options.schema,
    onSubscribe: async (req, params) => {
      const admitted = await admit(req.raw.headers, params);
      if ('errors' in admitted) {
        const status = admitted.errors[0]?.extensions?.code === 'UNAUTHENTICATED' ? 401 : 400;
        return [
          JSON.stringify({ errors: admitted.errors }),
          { status, statusText: 'refused', headers: { 'content-type': 'application/json' } },
        ];
      }
      req.context.res.once('close', admitted.release);
      return admitted.args as never;
    },
    onNext: (_ctx, _req, result) => formatted(result, (error) => options.formatError(error)),
  });

  return {
    wantsEvents: (req) => (req.headers.accept ?? '').includes('text/event-stream'),
    serveEvents(req, res) {
      streams.add(res);
      res.once('close', () => streams.delete(res));
      sse(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    },
    stopping() {
      for (const socket of wsServer.clients)
        socket.close(RESTART_CLOSE_CODE, 'the server restarts: reconnect, then resume after your last cursor');
      for (const res of streams) res.end();
    },
    async close() {
      await disposable.dispose();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}

/** A formatted error (formatError.ts) as a GraphQLError whose JSON is that. */
export function clientError(formatted: GraphQLFormattedError): GraphQLError {
  return new GraphQLError(formatted.message, { extensions: formatted.extensions ?? {} });
}

/** The connection_init payload's credentials, as the HTTP headers that carry them. */
function headersOf(params: Readonly<Record<string, unknown>> | undefined): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    const lower = name.toLowerCase();
    if ((lower === 'authorization' || lower === 'x-api-key') && typeof value === 'string') headers[lower] = value;
  }
  return headers;
}

function asGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new GraphQLError(message, {
    originalError: error instanceof Error ? error : undefined,
    extensions: isTreeError(error) ? error.extensions : {},
  });
}

/** An event's result with its errors as clients see them. */
function formatted<R extends { errors?: readonly GraphQLError[] }>(
  result: R,
  formatError: (e: GraphQLError) => GraphQLError,
): R {
  if (!result.errors?.length) return result;
  return { ...result, errors: result.errors.map(formatError) };
}
