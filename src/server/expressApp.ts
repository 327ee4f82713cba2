import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Config } from '../config.js';
import { relayNodeIds } from '../graphql/relayNode.js';
import { renameRootFields, type SchemaNames } from '../graphql/schemaPrefix.js';
import type { TreeAdmin } from '../storage/treeStore.js';
import { VERSION } from '../version.js';
import { graphiqlOff, graphiqlRouter } from './graphiql.js';
import type { GraphqlHandler } from './graphqlHandler.js';
import { landingRoute } from './landing.js';
import type { Metrics } from './metrics.js';

export interface ExpressAppOptions {
  config: Config;
  names: SchemaNames;
  /** Whether the store is ready (/readyz). */
  admin: Pick<TreeAdmin, 'ready'>;
  metrics: Pick<Metrics, 'registry'>;
  /** /graphql's two halves, GraphiQL's routes between them. */
  graphql: Pick<GraphqlHandler, 'prepare' | 'execute'>;
}

/**
 * What is not a POST to /graphql: /healthz, /metrics, the landing at /, /readyz, then /graphql
 * (GraphiQL's page and assets when GRAPHIQL is on, and GETs), ending in the GraphQL handler.
 */
export function createExpressApp(options: ExpressAppOptions): express.Express {
  const { config, names, metrics } = options;
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/metrics', async (_req, res) => {
    res.set('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
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
    const ready = await options.admin.ready();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable' });
  });
  // Before GraphiQL's router: Express's router answers an OPTIONS for a path it routes by itself,
  // so a preflight must be handled here first.
  app.use('/graphql', options.graphql.prepare);
  if (config.graphiql) app.use(graphiqlRoutes(config, names));
  else app.use('/graphql', graphiqlOff);
  app.use('/graphql', options.graphql.execute);
  return app;
}

/** GraphiQL's page and assets: all GETs, so a POST skips its routes without matching them. */
function graphiqlRoutes(config: Config, names: SchemaNames): RequestHandler {
  const relayIds = config.relayNode ? relayNodeIds(names) : undefined;
  const nodeId = relayIds && ((id: string) => relayIds.encode(id));
  const graphiql = graphiqlRouter(config.auth.mode, names, nodeId);
  return (req: Request, res: Response, next: NextFunction) =>
    req.method === 'GET' || req.method === 'HEAD' ? graphiql(req, res, next) : next();
}
