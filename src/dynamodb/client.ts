import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseAnswersAsJson, type JsonProtocol } from './jsonAnswers.js';
import { nativeOutput, type KeyNodes } from './nativeValues.js';

type MiddlewareStack = DynamoDBClient['middlewareStack'];

export interface DynamoOptions {
  endpoint: string | undefined;
  region: string;
  /** Extra middleware (tests inject faults here, inside the SDK retry loop). */
  middleware?: (stack: MiddlewareStack) => void;
  /** How long to wait for a connection, and for an answer once sent, per attempt (ms). */
  timeouts?: { connectMs: number; requestMs: number };
  /** The user agent of every call (default: `canopy`); built once, not by the SDK on every call. */
  userAgent?: string;
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
  const config: DynamoDBClientConfig = {
    region: options.region,
    endpoint: options.endpoint,
    maxAttempts: MAX_ATTEMPTS,
    retryMode: 'standard',
    // DynamoDB Local accepts any credentials; real endpoints use the default provider chain.
    ...(local ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  };
  const client = new DynamoDBClient({
    ...config,
    requestHandler: {
      httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
      httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
      // Without them a DynamoDB that accepts connections and never answers holds every call,
      // and every request waiting on it, for ever.
      ...(options.timeouts
        ? {
            connectionTimeout: options.timeouts.connectMs,
            requestTimeout: options.timeouts.requestMs,
            throwOnRequestTimeout: true,
          }
        : {}),
    },
  });
  // The document commands' client: the same sockets and credentials, and each command class's
  // middleware resolved once (cachedDocumentSend).
  const cached = new DynamoDBClient({
    ...config,
    credentials: client.config.credentials,
    requestHandler: client.config.requestHandler,
    cacheMiddleware: true,
  });
  for (const stack of [client.middlewareStack, cached.middlewareStack]) {
    prepareStack(stack, options);
    if (local) signForLocal(stack, options.region);
  }
  // Every answer this client gets goes through nativeOutput, which reads DynamoDB's wire form.
  parseAnswersAsJson(cached.config.protocol as unknown as JsonProtocol);
  for (const resolved of [client.config, cached.config]) withFastProperties(resolved);
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  doc.send = cachedDocumentSend(doc, cached);
  return { client, doc };
}

/**
 * The SDK copies its client's configuration, 51 properties, into a new object four times per
 * call (`{ ...config, ...context }` to serialize, resolve the endpoint, sign and deserialize).
 * It builds that object a property at a time, so V8 keeps it in dictionary mode, where such a
 * copy costs about 10 µs, against 1.5 µs for an object in fast mode: a seventh of the client's
 * CPU per call. V8 turns an object into its fast form once property lookups go through it as a
 * prototype; a few are enough (5 on Node 20's V8; client.test.ts checks that it worked). Nothing
 * else changes: the object keeps its identity, properties and values, which the SDK's
 * middleware holds.
 */
function withFastProperties(object: object): void {
  for (let i = 0; i < 16; i++) void (Object.create(object) as { region?: unknown }).region;
}

/** The middleware of every client: no logger, a fixed user agent, the call reports, the tests' own. */
function prepareStack(stack: MiddlewareStack, options: DynamoOptions): void {
  // The SDK's logger middleware builds a filtered copy of every response for a logger that
  // discards it (5% of the server's CPU on a page of a thousand items): no logging here.
  stack.remove('loggerMiddleware');
  // The SDK's user agent is rebuilt on every call (7% of the SDK's CPU per call): Canopy's is built once.
  stack.remove('getUserAgentMiddleware');
  const userAgent = options.userAgent ?? 'canopy';
  // Plain functions rather than async ones: no promise of their own on every call.
  stack.add(
    (next) => (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) request.headers['user-agent'] = userAgent;
      return next(args);
    },
    { step: 'build', name: 'canopyUserAgent' },
  );
  const { onCall } = options;
  if (onCall) {
    // Inside the retry loop: one report per attempt.
    stack.add(
      (next, context) => {
        const command = String(context.commandName ?? '').replace(/Command$/, '');
        return (args) => {
          const started = performance.now();
          return next(args).then(
            (result) => {
              onCall({ command, outcome: 'ok', ms: performance.now() - started });
              return result;
            },
            (error: unknown) => {
              onCall({ command, outcome: (error as Error)?.name ?? 'Error', ms: performance.now() - started, error });
              throw error;
            },
          );
        };
      },
      { step: 'finalizeRequest', priority: 'low', name: 'canopyOnCall' },
    );
  }
  options.middleware?.(stack);
}

/**
 * What a lib-dynamodb command is made of: the SDK command it wraps, and the marshalling it adds
 * to that command's middleware (which depends on the command's class and the client's options
 * only).
 */
interface DocumentCommand {
  clientCommand: Parameters<DynamoDBClient['send']>[0];
  outputKeyNodes: KeyNodes;
  addMarshallingMiddleware(configuration: DynamoDBDocumentClient['config']): void;
}

const isDocumentCommand = (command: unknown): command is DocumentCommand =>
  typeof (command as Partial<DocumentCommand>).addMarshallingMiddleware === 'function' &&
  (command as Partial<DocumentCommand>).clientCommand !== undefined;

/**
 * The document client resolves the SDK's middleware stack twice on every call (its command's,
 * then the wrapped command's), and cannot use the SDK's cache of resolved stacks (cacheMiddleware).
 * Its commands are sent here as the SDK commands they wrap, marshalling included, through a
 * client that resolves each class's stack once: a fifth less CPU per DynamoDB call. That
 * client sends nothing else, so that a class's cached stack is always a document command's.
 * Their answers are unmarshalled by nativeOutput (nativeValues.ts), not by util-dynamodb's generic
 * conversion. Calls with options (an abort signal) and other commands go the document client's own way.
 */
function cachedDocumentSend(doc: DynamoDBDocumentClient, cached: DynamoDBClient): DynamoDBDocumentClient['send'] {
  const send = doc.send.bind(doc) as (...args: unknown[]) => Promise<unknown>;
  return ((command: unknown, ...rest: unknown[]) => {
    if (rest.length > 0 || !isDocumentCommand(command)) return send(command, ...rest);
    command.addMarshallingMiddleware(doc.config);
    const unmarshall = (next: (args: unknown) => Promise<{ output: unknown }>) => async (args: unknown) => {
      const deserialized = await next(args);
      deserialized.output = nativeOutput(deserialized.output, command.outputKeyNodes);
      return deserialized;
    };
    command.clientCommand.middlewareStack.addRelativeTo(
      unmarshall as unknown as Parameters<MiddlewareStack['addRelativeTo']>[0],
      { name: 'DocumentUnmarshall', relation: 'before', toMiddleware: 'deserializerMiddleware', override: true },
    );
    return cached.send(command.clientCommand);
  }) as DynamoDBDocumentClient['send'];
}

/**
 * DynamoDB Local reads the access key and region of a request's Authorization header (they name
 * its database without -sharedDb) and checks no signature: computing one (SHA-256 of the body,
 * four HMACs) is a tenth of the client's CPU per call, for nothing. Calls to it carry a header
 * of the same form, with the same key and region, unsigned.
 */
function signForLocal(stack: MiddlewareStack, region: string): void {
  const authorization =
    `AWS4-HMAC-SHA256 Credential=local/20000101/${region}/dynamodb/aws4_request, ` + 'SignedHeaders=host, Signature=0';
  stack.remove('httpSigningMiddleware');
  stack.add(
    (next) => (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) request.headers.authorization = authorization;
      return next(args);
    },
    { step: 'build', name: 'localAuthorization' },
  );
}

/** DynamoDB Local accepts any credentials; real endpoints use the default provider chain. */
const isLocal = (endpoint: string | undefined): boolean =>
  endpoint !== undefined && /localhost|127\.0\.0\.1|\[::1\]/.test(endpoint);

/** The client of the table's stream (the stream worker). */
export type StreamsClient = DynamoDBStreamsClient;

/** The client of the table's stream, at the same endpoint as the table's. */
export function createStreamsClient(endpoint: string | undefined, region: string): DynamoDBStreamsClient {
  const streams = new DynamoDBStreamsClient({
    region,
    endpoint,
    maxAttempts: MAX_ATTEMPTS,
    ...(isLocal(endpoint) ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  withFastProperties(streams.config);
  return streams;
}
