import 'reflect-metadata';
// Apollo Server's class as its CommonJS build declares it: the integration's view of it.
import type { ApolloServer as CommonJsApollo } from '@apollo/server' with { 'resolution-mode': 'require' };
import { handlers, startServerAndCreateLambdaHandler } from '@as-integrations/aws-lambda';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { IncomingHttpHeaders } from 'node:http';
import { createAuthenticator } from '../auth/authenticate.js';
import type { Caller } from '../auth/caller.js';
import { loadConfig, type Config } from '../config.js';
import type { Dynamo } from '../dynamodb/client.js';
import { configuredSchema } from './configuredSchema.js';
import { dynamoFor, storeFor } from '../storeFor.js';
import { callerRefusal, createAdmission, type Admission } from './admission.js';
import { createApolloServer } from './apolloServer.js';
import { createFormatError } from './formatError.js';
import { DEFAULT_LIMITS } from './limitsPlugin.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { requestContexts, type RequestContext } from './requestContexts.js';
import { loadTrustedDocuments } from './trustedDocuments.js';

/** An API Gateway HTTP API (payload 2.0) event, and what the handler answers it. */
export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2;
export type ApiHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

/**
 * The GraphQL API as an AWS Lambda handler behind an API Gateway HTTP API, on Apollo Server's
 * Lambda integration: queries and mutations with the server's schema, admission (authentication,
 * trusted documents, the token limit, the shape limits), runtime budgets and cost report. What it
 * leaves to the server: live updates (no WebSockets; no event streams), GraphiQL and the probes,
 * the per-caller rate limit (API Gateway's throttling instead), and running jobs (JOB_RUNNER=worker:
 * the stream worker runs them). docs/deploy.md says when to choose it.
 */
export function createLambdaApi(config: Config, dynamo: Dynamo): ApiHandler {
  const admin = storeFor(config, dynamo);
  const { schema, names } = configuredSchema(config);
  const trusted = config.trustedDocuments === undefined ? null : loadTrustedDocuments(config.trustedDocuments);
  const authenticate = createAuthenticator(config.auth, dynamo.doc, config.table);
  const admission = createAdmission({ schema, authenticate, trusted, limits: DEFAULT_LIMITS });
  const formatError = createFormatError(config.production);
  const logger = createLogger(config.logLevel);
  const metrics = createMetrics(() => admin.openJobCount());
  const apollo = createApolloServer({ config, logger, metrics, schema, names, admission, formatError });
  const contextFor = requestContexts(admin);
  const callers = new WeakMap<ApiEvent, Caller>();
  // The integration is CommonJS and types Apollo Server's CommonJS build; this code loads its ES
  // module build. The two classes are the same code, and the integration only calls its methods.
  const server = apollo as unknown as CommonJsApollo<RequestContext>;
  return startServerAndCreateLambdaHandler(server, handlers.createAPIGatewayProxyEventV2RequestHandler(), {
    middleware: [(event) => admit(event, { admission, callers, formatError })],
    context: async ({ event }) => contextFor(callers.get(event)!),
  }) as ApiHandler;
}

/**
 * The admission's steps before Apollo runs the operation (admission.ts): the caller (401, or 503
 * when its keys cannot be read), then the text it may run (trusted documents, the token limit:
 * 400). A query sent by its hash alone gets its trusted text, in the event's body.
 */
async function admit(
  event: ApiEvent,
  parts: {
    admission: Admission;
    callers: WeakMap<ApiEvent, Caller>;
    formatError: ReturnType<typeof createFormatError>;
  },
): Promise<ApiResult | undefined> {
  const refusal = (status: number, error: unknown, headers: Record<string, string> = {}) => ({
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify({ errors: [parts.formatError({ message: 'Internal server error' }, error)] }),
  });
  try {
    parts.callers.set(event, await parts.admission.caller(event.headers as IncomingHttpHeaders));
  } catch (error) {
    const { status, headers } = callerRefusal(error);
    return refusal(status, error, headers);
  }
  const body = jsonBody(event);
  if (!body) return undefined;
  const hash = (body.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery
    ?.sha256Hash;
  const text = parts.admission.text(body.query, hash);
  if ('refused' in text) return refusal(400, text.refused);
  if (text.query !== body.query) event.body = JSON.stringify({ ...body, query: text.query });
  return undefined;
}

/** The event's JSON body, as Apollo will read it (undefined: none, or not JSON: Apollo answers). */
function jsonBody(event: ApiEvent): Record<string, unknown> | undefined {
  if (!event.body) return undefined;
  try {
    const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      if (event.isBase64Encoded) {
        event.body = text;
        event.isBase64Encoded = false;
      }
      return parsed as Record<string, unknown>;
    }
  } catch {
    // Apollo answers a body that is not JSON.
  }
  return undefined;
}

let configured: ApiHandler | undefined;

/**
 * `dist/src/server/lambdaApi.handler`: the API handler, configured by the server's environment
 * variables (DYNAMODB_TABLE, TREE_STRATEGY, AUTH, ...; NODE_ENV=production: DynamoDB in
 * AWS_REGION), built once per container.
 */
export async function handler(event: ApiEvent, context: Context): Promise<ApiResult> {
  if (!configured) {
    const config = loadConfig();
    const dynamo = dynamoFor(config);
    configured = createLambdaApi(config, dynamo);
  }
  return configured(event, context);
}
