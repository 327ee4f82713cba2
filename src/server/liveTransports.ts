import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { GraphQLError, GraphQLSchema } from 'graphql';
import type { Admission } from './admission.js';
import { createEventStreamTransport } from './eventStreamTransport.js';
import type { LiveConnections } from './liveConnections.js';
import type { Metrics } from './metrics.js';
import { subscriptionAdmission } from './subscriptionAdmission.js';
import { subscriptionSlots } from './subscriptionSlots.js';
import { createWebSocketTransport } from './webSocketTransport.js';

/**
 * GraphQL subscriptions at /graphql, over WebSocket (graphql-ws, on the HTTP server's upgrade;
 * webSocketTransport.ts) and over Server-Sent Events (graphql-sse: a request that accepts
 * text/event-stream; eventStreamTransport.ts). Both admit an operation the same way
 * (subscriptionAdmission.ts), with the steps HTTP takes (admission.ts): the caller authenticated
 * with the same modes (WebSocket: the connection_init payload's `authorization` or `x-api-key`;
 * SSE: the request's headers), trusted documents and the operation limits; then subscriptions
 * only (queries and mutations go over POST), and the limits of live subscriptions per caller
 * and per connection, and of connections per process. A connection's caller is authenticated at
 * its first subscription, and again the same way while it is open, for all its subscriptions
 * (liveConnections.ts). On close, every
 * WebSocket gets 1012 (service restart: reconnect and resume from the last cursor) and every
 * event stream ends.
 */
export interface LiveTransportOptions {
  schema: GraphQLSchema;
  /** How an operation is admitted, as over HTTP (admission.ts). */
  admission: Admission;
  /** Each connection's caller and store, and its subscriptions' contexts (liveConnections.ts). */
  connections: LiveConnections;
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

/** Both live transports, over one admission and one count of each caller's subscriptions. */
export function createLiveTransports(httpServer: Server, options: LiveTransportOptions): LiveTransports {
  const slots = subscriptionSlots(options.limits.perCaller, options.metrics);
  const admit = subscriptionAdmission({ ...options, slots });
  const closed = (key: object) => options.connections.closed(key);
  const webSocket = createWebSocketTransport(httpServer, { ...options, admit, closed });
  const eventStreams = createEventStreamTransport({ ...options, admit, closed });
  return {
    wantsEvents: (req) => (req.headers.accept ?? '').includes('text/event-stream'),
    serveEvents: (req, res) => eventStreams.serve(req, res),
    stopping() {
      webSocket.stopping();
      eventStreams.stopping();
    },
    close: () => webSocket.close(),
  };
}
