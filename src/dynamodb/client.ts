import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

type MiddlewareStack = DynamoDBClient['middlewareStack'];

export interface DynamoOptions {
  endpoint: string | undefined;
  region: string;
  /** Extra middleware (tests inject faults here, inside the SDK retry loop). */
  middleware?: (stack: MiddlewareStack) => void;
  /** How long to wait for a connection, and for an answer once sent, per attempt (ms). */
  timeouts?: { connectMs: number; requestMs: number };
  /** Told of every attempt of every call: its command, its outcome ('ok' or the error's name), its time. */
  onCall?: (call: DynamoCall) => void;
}

export interface DynamoCall {
  /** The API action: BatchGetItem, Query, TransactWriteItems, ... */
  command: string;
  outcome: string;
  ms: number;
  error?: unknown;
}

/** The SDK's attempts per call: a timed-out or throttled call is tried this many times in all. */
const MAX_ATTEMPTS = 3;

export interface Dynamo {
  client: DynamoDBClient;
  doc: DynamoDBDocumentClient;
}

/**
 * Sockets kept open to DynamoDB. One GraphQL operation sends a wave of calls at once (a Query
 * per parent of a level under adjacency, BatchGets of 100 keys): the SDK's default of 50 makes
 * the calls of 16 concurrent operations wait for a socket (and warn about it).
 */
const MAX_SOCKETS = 256;

/**
 * The SDK retry policy is pinned (standard mode, 3 attempts) so that the request counts in the
 * cost report and in tests do not move with SDK defaults. With `timeouts`, a call that gets no
 * connection or no answer in time fails (and is retried): after its attempts, it is
 * SERVICE_UNAVAILABLE (serviceErrors.ts).
 */
export function createDynamo(options: DynamoOptions): Dynamo {
  const local = isLocal(options.endpoint);
  const client = new DynamoDBClient({
    region: options.region,
    endpoint: options.endpoint,
    maxAttempts: MAX_ATTEMPTS,
    retryMode: 'standard',
    requestHandler: {
      httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
      httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
      // Without them a DynamoDB that accepts connections and never answers holds every call,
      // and every request waiting on it, for ever.
      ...(options.timeouts
        ? { connectionTimeout: options.timeouts.connectMs, requestTimeout: options.timeouts.requestMs, throwOnRequestTimeout: true }
        : {}),
    },
    // DynamoDB Local accepts any credentials; real endpoints use the default provider chain.
    ...(local ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  // The SDK's logger middleware builds a filtered copy of every response for a logger that
  // discards it (5% of the server's CPU on a page of a thousand items): no logging here.
  client.middlewareStack.remove('loggerMiddleware');
  const { onCall } = options;
  if (onCall) {
    // Inside the retry loop: one report per attempt.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const command = String(context.commandName ?? '').replace(/Command$/, '');
        const started = performance.now();
        try {
          const result = await next(args);
          onCall({ command, outcome: 'ok', ms: performance.now() - started });
          return result;
        } catch (error) {
          onCall({ command, outcome: (error as Error)?.name ?? 'Error', ms: performance.now() - started, error });
          throw error;
        }
      },
      { step: 'finalizeRequest', priority: 'low', name: 'canopyOnCall' },
    );
  }
  options.middleware?.(client.middlewareStack);
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { client, doc };
}

/** DynamoDB Local accepts any credentials; real endpoints use the default provider chain. */
const isLocal = (endpoint: string | undefined): boolean => endpoint !== undefined && /localhost|127\.0\.0\.1|\[::1\]/.test(endpoint);

/** The client of the table's stream (the stream worker). */
export type StreamsClient = DynamoDBStreamsClient;

/** The client of the table's stream, at the same endpoint as the table's. */
export function createStreamsClient(endpoint: string | undefined, region: string): DynamoDBStreamsClient {
  return new DynamoDBStreamsClient({
    region,
    endpoint,
    maxAttempts: MAX_ATTEMPTS,
    ...(isLocal(endpoint) ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
}
