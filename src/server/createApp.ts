import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Authenticate } from '../auth/authenticate.js';
import type { Caller } from '../auth/caller.js';
import { canRead, canWrite } from '../auth/grants.js';
import type { Config } from '../config.js';
import { newCost, type DynamoCost } from '../dynamodb/costMeter.js';
import { createAccess } from '../graphql/access.js';
import { buildTreeSchema } from '../graphql/buildSchema.js';
import { relayNodeIds } from '../graphql/relayNode.js';
import { renameRootFields, schemaNames } from '../graphql/schemaPrefix.js';
import type { Context } from '../graphql/context.js';
import { createLoaders } from '../loaders/createLoaders.js';
import type { TreeAdmin } from '../storage/treeStore.js';
import { VERSION } from '../version.js';
import { createCostPlugin } from './costPlugin.js';
import type { ChangeHub } from '../live/changeHub.js';
import { clientError, createLiveTransports } from './liveTransports.js';
import { createFormatError } from './formatError.js';
import { graphiqlRouter } from './graphiql.js';
import { createGraphqlHandler } from './graphqlHandler.js';
import { armorRules } from './armorRules.js';
import { landingRoute } from './landing.js';
import { createLimitsPlugin, DEFAULT_LIMITS } from './limitsPlugin.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { createObservePlugin } from './observePlugin.js';
import type { TrustedDocuments } from './trustedDocuments.js';

/**
 * The HTTP surface: /graphql (GraphiQL for browsers, GraphQL for everything else), /healthz,
 * /readyz, /metrics, and a landing at / that lists them. Cross-cutting concerns are Apollo
 * plugins, listed in order in one place.
 *
 * Browser conventions on /graphql: CORS for the origins of CORS_ORIGINS only; queries over GET
 * as well as POST (mutations only over POST); automatic persisted queries; CSRF prevention; and
 * no response stored by any cache (tree data changes under the client that changes it).
 */

/** What an operation's resolvers get, and its DynamoDB cost meter, for the plugins. */
type RequestContext = Context & { cost: DynamoCost; caller: Caller };

export async function createApp(
  config: Config,
  admin: TreeAdmin,
  http: { authenticate: Authenticate; trusted: TrustedDocuments | null; hub: ChangeHub },
  httpServer: Server,
  observe: { logger: Logger; metrics: Metrics },
) {
  const formatError = createFormatError(config.production);
  const names = schemaNames(config.schemaPrefix);
  const schema = buildTreeSchema({ federation: config.federation, names, relayNode: config.relayNode });
  // Every request gets its own store (its caller's tenant), loaders and DynamoDB cost meter.
  const contextFor = async (caller: Caller): Promise<RequestContext> => {
    const cost = newCost();
    // A caller who may write only some trees: every write checks and guards its tree (the
    // resolvers' check is made before the write reads; the tree may change in between).
    const { grants } = caller;
    const access =
      grants.all === 'write'
        ? undefined
        : (root: string) => (canWrite(grants, root) ? 'write' : canRead(grants, root) ? 'read' : null);
    // Who makes the request's changes, for their records: the token's subject, or the key's name.
    const by = caller.keyName ?? caller.subject ?? undefined;
    const scoped = admin.store.scoped(cost, caller.tenant, access, by);
    const loaders = createLoaders(scoped);
    return { caller, store: scoped, loaders, access: createAccess(caller.grants, loaders), cost };
  };
  const live = createLiveTransports(httpServer, {
    schema,
    authenticate: http.authenticate,
    trusted: http.trusted,
    contextFor: async (caller, reauthenticate) => ({
      ...(await contextFor(caller)),
      live: {
        hub: http.hub,
        tenant: caller.tenant,
        caller,
        reauthenticate,
        retentionMs: config.changeRetentionHours * 3_600_000,
        queueLimit: config.liveQueueLimit,
        observe: {
          delivered: (at) => {
            observe.metrics.liveEvents.inc();
            observe.metrics.liveLag.observe(Math.max(0, Date.now() - Date.parse(at)) / 1000);
          },
          dropped: () => observe.metrics.liveDropped.inc(),
        },
      },
    }),
    formatError: (error) => clientError(formatError(error.toJSON(), error)),
    limits: {
      connections: config.liveMaxConnections,
      perCaller: config.liveMaxSubscriptionsPerCaller,
      perConnection: config.liveMaxSubscriptionsPerConnection,
    },
    metrics: observe.metrics,
  });
  const apollo = new ApolloServer<RequestContext>({
    schema,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      createLimitsPlugin(
        DEFAULT_LIMITS,
        { requests: config.maxOperationRequests, itemsRead: config.maxOperationItemsRead },
        config.maxTreeDepth,
        names.canonicalRootField,
      ),
      createCostPlugin(),
      createObservePlugin(observe.logger, observe.metrics),
      // No answer is cacheable (tree data changes under the client that changes it): the
      // middleware below sends `cache-control: no-store` on every /graphql response. Apollo's
      // cache-control plugin, installed unless disabled, would hook every field resolution to
      // compute a policy that is always the same.
      ApolloServerPluginCacheControlDisabled(),
      // The server's own GraphiQL (GRAPHIQL) is the only page: none of Apollo's landing pages,
      // whose production default would load a page from Apollo's CDN.
      ApolloServerPluginLandingPageDisabled(),
    ],
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
    validationRules: armorRules(DEFAULT_LIMITS),
    formatError,
    includeStacktraceInErrorResponses: !config.production,
    introspection: config.introspection,
    // Without introspection, "Did you mean …?" suggestions would still spell the schema out.
    hideSchemaDetailsFromClientErrors: !config.introspection,
    // A backstop for a request shape the token limit in front of Apollo does not see: the same
    // limit, enforced by the parser (as GRAPHQL_PARSE_FAILED).
    parseOptions: { maxTokens: DEFAULT_LIMITS.maxTokens },
    // Apollo's own messages (a subgraph's "Enabling inline tracing ...") go to the server's log.
    logger: observe.logger,
  });
  await apollo.start();

  const graphql = createGraphqlHandler(apollo, {
    corsOrigins: config.corsOrigins,
    limits: DEFAULT_LIMITS,
    formatError,
    authenticate: http.authenticate,
    rateLimit: config.rateLimit,
    trusted: http.trusted,
    context: contextFor,
  });

  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/metrics', async (_req, res) => {
    res.set('content-type', observe.metrics.registry.contentType).send(await observe.metrics.registry.metrics());
  });
  app.get(
    '/',
    landingRoute({
      name: 'Canopy',
      version: config.production ? null : VERSION,
      graphiql: config.graphiql,
      auth: config.auth.mode,
      exampleQuery: renameRootFields('{ roots { nodes { id name } } }', names),
    }),
  );
  app.get('/readyz', async (_req, res) => {
    const ready = await admin.ready();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable' });
  });
  // Before GraphiQL's router: Express's router answers an OPTIONS for a path it routes by itself,
  // so a preflight must be handled here first.
  app.use('/graphql', graphql.prepare);
  // GraphiQL's page and assets are all GETs: a POST skips its routes without matching them.
  if (config.graphiql) {
    const relayIds = config.relayNode ? relayNodeIds(names) : undefined;
    const nodeId = relayIds && ((id: string) => relayIds.encode(id));
    const graphiql = graphiqlRouter(config.auth.mode, names, nodeId);
    app.use((req: Request, res: Response, next: NextFunction) =>
      req.method === 'GET' || req.method === 'HEAD' ? graphiql(req, res, next) : next(),
    );
  }
  app.use('/graphql', graphql.execute);

  /**
   * The server's request listener. A POST to /graphql, what every operation of an app is, goes
   * straight to the GraphQL handler; everything else (GraphiQL, GETs, probes, metrics, other
   * paths) through the Express app, which ends in the same handler.
   */
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const graphqlPath = req.url === '/graphql' || req.url?.startsWith('/graphql?');
    if (graphqlPath && live.wantsEvents(req)) live.serveEvents(req, res);
    else if (req.method === 'POST' && graphqlPath) graphql.handle(req, res);
    else app(req, res);
  };
  return { listener, apollo, live };
}
