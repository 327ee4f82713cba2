import type { IncomingHttpHeaders, Server } from 'node:http';
import type { GraphQLError, GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { TreeError } from '../errors.js';
import { asGraphQLError, formatted } from './liveErrors.js';
import type { Metrics } from './metrics.js';
import type { AdmitSubscription } from './subscriptionAdmission.js';

/** WebSocket close code for a server going away for a restart: clients reconnect and resume. */
export const RESTART_CLOSE_CODE = 1012;

export interface WebSocketOptions {
  schema: GraphQLSchema;
  /** A subscription's admission (subscriptionAdmission.ts). */
  admit: AdmitSubscription;
  /** Told of each connection closed (its context, the key `admit` was given). */
  closed(key: object): void;
  /** An error as clients see it (formatError.ts). */
  formatError(error: GraphQLError): GraphQLError;
  /** Connections this process accepts at once, and subscriptions one connection holds. */
  limits: { connections: number; perConnection: number };
  metrics: Pick<Metrics, 'liveConnections'>;
}

export interface WebSocketTransport {
  /** Closes every connection with 1012: clients reconnect and resume after their last cursor. */
  stopping(): void;
  /** Releases the WebSocket server. */
  close(): Promise<void>;
}

/**
 * GraphQL over WebSocket (graphql-ws) at /graphql, on the HTTP server's upgrade: the credentials
 * are the connection_init payload's, and a connection holds at most `limits.perConnection`
 * subscriptions.
 */
export function createWebSocketTransport(httpServer: Server, options: WebSocketOptions): WebSocketTransport {
  const { limits, metrics } = options;
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql' });
  const releases = connectionReleases();
  const disposable = useServer(
    {
      schema: options.schema,
      onConnect: (ctx) => {
        if (wsServer.clients.size > limits.connections) return false;
        // The upgrade request, nothing reads it after the handshake: not kept for the connection's life.
        Reflect.deleteProperty(ctx.extra, 'request');
        metrics.liveConnections.inc();
        return true;
      },
      onClose: (ctx) => {
        releases.releaseAll(ctx);
        options.closed(ctx);
      },
      onDisconnect: () => metrics.liveConnections.dec(),
      onSubscribe: async (ctx, id, payload) => {
        if (releases.of(ctx).size >= limits.perConnection) return [options.formatError(connectionFull(limits))];
        const admitted = await options.admit(ctx, headersOf(ctx.connectionParams), payload);
        if ('errors' in admitted) return admitted.errors;
        releases.of(ctx).set(id, admitted.release);
        return admitted.args;
      },
      onComplete: (ctx, id) => releases.release(ctx, id),
      onNext: (_ctx, _id, _payload, _args, result) => formatted(result, (error) => options.formatError(error)),
    },
    wsServer,
  );
  return {
    stopping() {
      for (const socket of wsServer.clients)
        socket.close(RESTART_CLOSE_CODE, 'the server restarts: reconnect, then resume after your last cursor');
    },
    async close() {
      await disposable.dispose();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}

/** The releases of each connection's subscriptions, by id: on completion, and on close for any left. */
function connectionReleases() {
  const releases = new WeakMap<object, Map<string, () => void>>();
  const of = (ctx: object) => {
    let held = releases.get(ctx);
    if (!held) releases.set(ctx, (held = new Map<string, () => void>()));
    return held;
  };
  return {
    of,
    release(ctx: object, id: string) {
      of(ctx).get(id)?.();
      of(ctx).delete(id);
    },
    releaseAll(ctx: object) {
      for (const release of of(ctx).values()) release();
      releases.delete(ctx);
    },
  };
}

/** The refusal of a subscription past a connection's limit. */
function connectionFull(limits: { perConnection: number }): GraphQLError {
  return asGraphQLError(
    new TreeError('LIMIT_EXCEEDED', `a connection may hold ${limits.perConnection} live subscriptions`, {
      limit: limits.perConnection,
    }),
  );
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
