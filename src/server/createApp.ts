import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Authenticate } from '../auth/authenticate.js';
import type { Config } from '../config.js';
import { configuredSchema } from './configuredSchema.js';
import type { ChangeHub } from '../live/changeHub.js';
import type { TreeAdmin } from '../storage/treeStore.js';
import { createAdmission } from './admission.js';
import { createApolloServer } from './apolloServer.js';
import { DEFAULT_LIMITS } from './limitsPlugin.js';
import { createExpressApp } from './expressApp.js';
import { createFormatError } from './formatError.js';
import { createGraphqlHandler, type GraphqlHandler } from './graphqlHandler.js';
import { liveConnections } from './liveConnections.js';
import { clientError } from './liveErrors.js';
import { createLiveTransports, type LiveTransports } from './liveTransports.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { requestContexts } from './requestContexts.js';
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
  const { schema, names } = configuredSchema(config);
  const { authenticate, trusted } = options;
  const admission = createAdmission({ schema, authenticate, trusted, limits: DEFAULT_LIMITS });
  const contextFor = requestContexts(options.admin);
  const live = createLiveTransports(httpServer, {
    schema,
    admission,
    connections: liveConnections({ admin: options.admin, hub: options.hub, config, metrics }),
    formatError: (error) => clientError(formatError(error.toJSON(), error)),
    limits: {
      connections: config.liveMaxConnections,
      perCaller: config.liveMaxSubscriptionsPerCaller,
      perConnection: config.liveMaxSubscriptionsPerConnection,
    },
    metrics,
  });
  const apollo = createApolloServer({ ...options, schema, names, admission, formatError });
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
