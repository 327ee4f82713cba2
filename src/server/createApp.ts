import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Server } from 'node:http';
import type { Config } from '../config.js';
import { newCost, runWithCost } from '../dynamodb/costMeter.js';
import { buildTreeSchema } from '../graphql/buildSchema.js';
import type { Context } from '../graphql/context.js';
import { createLoaders } from '../loaders/createLoaders.js';
import type { TreeStore } from '../storage/treeStore.js';
import { createCostPlugin } from './costPlugin.js';
import { createFormatError } from './formatError.js';
import { graphiqlRouter } from './graphiql.js';
import { createLimitsPlugin } from './limitsPlugin.js';

/**
 * The HTTP surface: /graphql (GraphiQL for browsers, GraphQL for everything else), /healthz and
 * /readyz. Cross-cutting concerns are Apollo plugins, listed in order in one place.
 */
export async function createApp(config: Config, store: TreeStore, httpServer: Server) {
  const apollo = new ApolloServer<Context>({
    schema: buildTreeSchema({ federation: config.federation }),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      createLimitsPlugin(),
      createCostPlugin(),
    ],
    formatError: createFormatError(config.production),
    includeStacktraceInErrorResponses: !config.production,
    introspection: true,
    // A parse of more tokens than any real tree query needs is refused before it costs anything.
    parseOptions: { maxTokens: 5000 },
  });
  await apollo.start();

  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ready = await store.ready();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable' });
  });
  app.use(graphiqlRouter());
  app.use(
    '/graphql',
    // Every request gets its own DynamoDB cost meter, found by the SDK middleware.
    (_req: Request, _res: Response, next: NextFunction) => runWithCost(newCost(), next),
    express.json({ limit: '1mb' }),
    expressMiddleware(apollo, {
      context: async (): Promise<Context> => ({ store, loaders: createLoaders(store) }),
    }),
  );
  // Body-parser failures (malformed JSON, too large) as JSON errors, never an HTML stack page.
  app.use((error: { status?: number; type?: string; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
    const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 500) console.error('unexpected HTTP error:', error);
    res.status(status).json({
      errors: [
        {
          message: status === 400 ? 'The request body is not valid JSON' : status === 500 ? 'Internal server error' : (error.message ?? 'Bad request'),
          extensions: { code: status === 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST' },
        },
      ],
    });
  });
  return { app, apollo };
}
