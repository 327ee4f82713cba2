import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import type { GraphQLSchema } from 'graphql';
import type { Server } from 'node:http';
import type { SchemaNames } from '../graphql/schemaPrefix.js';
import type { Admission } from './admission.js';
import type { Config } from '../config.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { createCostPlugin } from './costPlugin.js';
import type { createFormatError } from './formatError.js';
import { createLimitsPlugin, DEFAULT_LIMITS } from './limitsPlugin.js';
import { createObservePlugin } from './observePlugin.js';
import type { RequestContext } from './requestContexts.js';

/** What Apollo Server is made of: the app's parts, the schema and how an operation is admitted. */
export interface ApolloOptions {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  /** The HTTP server to drain on stop; none in a Lambda. */
  httpServer?: Server;
  schema: GraphQLSchema;
  names: SchemaNames;
  admission: Admission;
  formatError: ReturnType<typeof createFormatError>;
}

/** Apollo Server, parsing and validating as the admission does, its plugins in order. */
export function createApolloServer(options: ApolloOptions): ApolloServer<RequestContext> {
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
    ...(options.httpServer ? [ApolloServerPluginDrainHttpServer({ httpServer: options.httpServer })] : []),
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
