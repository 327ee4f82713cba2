import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLError, GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/http';
import type { Context } from '../graphql/context.js';
import { formatted } from './liveErrors.js';
import type { AdmitSubscription } from './subscriptionAdmission.js';

export interface EventStreamOptions {
  schema: GraphQLSchema;
  /** A subscription's admission (subscriptionAdmission.ts). */
  admit: AdmitSubscription;
  /** Told of each stream closed (its request, the key `admit` was given). */
  closed(key: object): void;
  /** An error as clients see it (formatError.ts). */
  formatError(error: GraphQLError): GraphQLError;
}

export interface EventStreamTransport {
  /** Serves an event-stream request. */
  serve(req: IncomingMessage, res: ServerResponse): void;
  /** Ends every stream. */
  stopping(): void;
}

/**
 * GraphQL over Server-Sent Events (graphql-sse), distinct connections: one request per
 * subscription, its credentials in the request's headers; a refusal answers 401 for
 * authentication's, 400 for any other, with the errors as JSON.
 */
export function createEventStreamTransport(options: EventStreamOptions): EventStreamTransport {
  const streams = new Set<ServerResponse>();
  const sse = createHandler<Context & Record<PropertyKey, unknown>>({
    schema: options.schema,
    onSubscribe: async (req, params) => {
      // Listened to before the admission, which may take a while (authentication): a stream
      // closed meanwhile takes back what its admission took, once it has.
      const { res } = req.context;
      let release: (() => void) | undefined;
      let gone = false;
      res.once('close', () => {
        gone = true;
        release?.();
        options.closed(req.raw);
      });
      const admitted = await options.admit(req.raw, req.raw.headers, params);
      if ('errors' in admitted) {
        options.closed(req.raw);
        return refusal(admitted.errors);
      }
      if (gone) {
        // Closed during the admission: its subscription goes back, and the connection it opened closes.
        admitted.release();
        options.closed(req.raw);
        return refusal([]);
      }
      release = admitted.release;
      return admitted.args as never;
    },
    onNext: (_ctx, _req, result) => formatted(result, (error) => options.formatError(error)),
  });
  return {
    serve(req, res) {
      streams.add(res);
      res.once('close', () => streams.delete(res));
      sse(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    },
    stopping() {
      for (const res of streams) res.end();
    },
  };
}

/** An event-stream request refused: its errors as JSON, 401 when authentication refused it, else 400. */
function refusal(
  errors: GraphQLError[],
): [string, { status: number; statusText: string; headers: Record<string, string> }] {
  const status = errors[0]?.extensions?.code === 'UNAUTHENTICATED' ? 401 : 400;
  return [
    JSON.stringify({ errors }),
    { status, statusText: 'refused', headers: { 'content-type': 'application/json' } },
  ];
}
