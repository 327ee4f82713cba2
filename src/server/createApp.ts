import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import type { GraphQLSchema } from 'graphql';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Authenticate } from '../auth/authenticate.js';
import type { Config } from '../config.js';
import { buildTreeSchema } from '../graphql/buildSchema.js';
import { schemaNames, type SchemaNames } from '../graphql/schemaPrefix.js';
import type { ChangeHub } from '../live/changeHub.js';
import type { TreeAdmin } from '../storage/treeStore.js';
import { createAdmission, type Admission } from './admission.js';
import { createCostPlugin } from './costPlugin.js';
import { createExpressApp } from './expressApp.js';
import { createFormatError } from './formatError.js';
import { createGraphqlHandler, type GraphqlHandler } from './graphqlHandler.js';
import { createLimitsPlugin, DEFAULT_LIMITS } from './limitsPlugin.js';
import { clientError } from './liveErrors.js';
import { createLiveTransports, type LiveTransports } from './liveTransports.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { createObservePlugin } from './observePlugin.js';
import { requestContexts, subscriptionContexts, type RequestContext } from './requestContexts.js';
import type { TrustedDocuments } from './trustedDocuments.js';

/**
 * The HTTP surface: /graphql (GraphiQL for browsers, GraphQL for everything else), /healthz,
 * /readyz, /metrics, and a landing at / that lists them. Cross-cutting concerns are Apollo
 * plugins, listed in order in one place (apolloPlugins). Every operation, over HTTP or live, is
 * admitted by the same steps (admission.ts).
 *
 * Browser conventions on /graphql: CORS for the origins of CORS_ORIGINS only; queries over GET
 * as well as POST (mutations only over POST); automatic persisted queries; CSRF prevention; and
 * no response stored by any cache (tree data changes under the client that changes it).
 */
export interface AppOptions {
  config: Config;
  admin: TreeAdmin;
  /** Who a request comes from (AUTH). */
  authenticate: Authenticate;
  /** Trusted documents: the only operations that run (null: any). */
  trusted: TrustedDocuments | null;
  /** Live updates' readers of the trees' changes. */
  hub: ChangeHub;
  /** The server the app answers on (WebSocket upgrades; Apollo drains it on stop). */
  httpServer: Server;
  logger: Logger;
  metrics: Metrics;
}

/** The server's request listener, its Apollo server and its live transports, for the server to stop them. */
export async function createApp(options: AppOptions) {
  const { config, httpServer, metrics } = options;
  const formatError = createFormatError(config.production);
  const names = schemaNames(config.schemaPrefix);
  const schema = buildTreeSchema({ federation: config.federation, names, relayNode: config.relayNode });
  const { authenticate, trusted } = options;
  const admission = createAdmission({ schema, authenticate, trusted, limits: DEFAULT_LIMITS });
  const contextFor = requestContexts(options.admin);
  const live = createLiveTransports(httpServer, {
    schema,
    admission,
    contextFor: subscriptionContexts({ contextFor, hub: options.hub, config, metrics }),
    formatError: (error) => clientError(formatError(error.toJSON(), error)),
    limits: {
      connections: config.liveMaxConnections,
      perCaller: config.liveMaxSubscriptionsPerCaller,
      perConnection: config.liveMaxSubscriptionsPerConnection,
    },
    metrics,
  });
  const apollo = apolloServer({ ...options, schema, names, admission, formatError });
  await apollo.start();
  const graphql = createGraphqlHandler(apollo, {
    corsOrigins: config.corsOrigins,
    formatError,
    admission,
    rateLimit: config.rateLimit,
    context: contextFor,
  });
  const app = createExpressApp({ ...options, names, graphql });
  return { listener: requestListener({ live, graphql, app }), apollo, live };
}

interface ApolloOptions extends AppOptions {
  schema: GraphQLSchema;
  names: SchemaNames;
  admission: Admission;
  formatError: ReturnType<typeof createFormatError>;
}

/** Apollo Server, parsing and validating as the admission does, its plugins in order. */
function apolloServer(options: ApolloOptions): ApolloServer<RequestContext> {
  const { config, admission } = options;
  return new ApolloServer<RequestContext>({
    schema: options.schema,
    plugins: apolloPlugins(options),
    // Automatic persisted queries: a client may send only the query's SHA-256; an unknown hash
    // answers PERSISTED_QUERY_NOT_FOUND and the client resends it with the query, which
    // registers it. Kept in Apollo's bounded in-memory LRU of this process, with no expiry.
    persistedQueries: { ttl: null },
    // A GET, or a POST of a type a plain HTML form can send (text/plain, form encodings), must
    // carry `apollo-require-preflight` or `x-apollo-operation-name`; otherwise HTTP 400 before
    // anything runs. A cross-site page cannot add those headers without a CORS preflight. The
    // GraphQL handler refuses such requests first, saying which header to send (csrfRefusal.ts);
    // Apollo's check stays on behind it.
    csrfPrevention: true,
    // Nesting, aliases and directives: graphql-armor's rules, while the document is validated.
    validationRules: admission.validationRules,
    formatError: options.formatError,
    includeStacktraceInErrorResponses: !config.production,
    introspection: config.introspection,
    // Without introspection, "Did you mean …?" suggestions would still spell the schema out.
    hideSchemaDetailsFromClientErrors: !config.introspection,
    // A backstop for a request shape the token limit in front of Apollo does not see: the same
    // limit, enforced by the parser (as GRAPHQL_PARSE_FAILED).
    parseOptions: admission.parseOptions,
    // Apollo's own messages (a subgraph's "Enabling inline tracing ...") go to the server's log.
    logger: options.logger,
  });
}

/** The cross-cutting concerns of every HTTP operation, in the order they run. */
function apolloPlugins(options: ApolloOptions): ApolloServerPlugin<RequestContext>[] {
  const { config } = options;
  return [
    ApolloServerPluginDrainHttpServer({ httpServer: options.httpServer }),
    createLimitsPlugin({
      limits: DEFAULT_LIMITS,
      budget: { requests: config.maxOperationRequests, itemsRead: config.maxOperationItemsRead },
      maxTreeDepth: config.maxTreeDepth,
      rootField: options.names.canonicalRootField,
    }),
    createCostPlugin(),
    createObservePlugin(options.logger, options.metrics),
    // No answer is cacheable (tree data changes under the client that changes it): the
    // GraphQL handler sends `cache-control: no-store` on every /graphql response. Apollo's
    // cache-control plugin, installed unless disabled, would hook every field resolution to
    // compute a policy that is always the same.
    ApolloServerPluginCacheControlDisabled(),
    // The server's own GraphiQL (GRAPHIQL) is the only page: none of Apollo's landing pages,
    // whose production default would load a page from Apollo's CDN.
    ApolloServerPluginLandingPageDisabled(),
  ];
}

/**
 * The server's request listener. A POST to /graphql, what every operation of an app is, goes
 * straight to the GraphQL handler; an event stream to the live transports; everything else
 * (GraphiQL, GETs, probes, metrics, other paths) through the Express app, which ends in the same
 * handler.
 */
function requestListener(parts: { live: LiveTransports; graphql: GraphqlHandler; app: RequestListener }) {
  const { live, graphql, app } = parts;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const graphqlPath = req.url === '/graphql' || req.url?.startsWith('/graphql?');
    if (graphqlPath && live.wantsEvents(req)) live.serveEvents(req, res);
    else if (req.method === 'POST' && graphqlPath) graphql.handle(req, res);
    else app(req, res);
  };
}
