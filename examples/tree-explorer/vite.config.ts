import { fileURLToPath } from 'node:url';
import { defineConfig, loadEnv, type ProxyOptions } from 'vite';

/**
 * The tree explorer, built by Vite alone: Vite 8 transpiles TSX itself (Oxc), with React's
 * automatic JSX runtime, so no React plugin is needed. Runs from the repository root:
 * `npm run example` (dev server) and `npm run example:build` (into examples/tree-explorer/dist).
 *
 * The dev server (and `vite preview`, which takes the same proxy) forwards `/graphql` to the
 * API, `CANOPY_API` (default http://localhost:$PORT, the port the API itself reads, 4000 when
 * unset): the app calls its own origin, so the API needs no CORS setting for it. The dev server
 * listens on `APP_PORT` (default 5173). `npm run dev` starts both with the same environment, so
 * `PORT=4100 APP_PORT=5200 npm run dev` moves both and the proxy follows.
 */
const root = fileURLToPath(new URL('.', import.meta.url));

const DEFAULT_API_PORT = 4000;
const DEFAULT_APP_PORT = 5173;

/** A port from the environment, or the fallback when unset; anything else stops Vite, naming the variable. */
function portFrom(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${name} must be a port number (1 to 65535), got ${JSON.stringify(value)}`);
  }
  return port;
}

/**
 * `/graphql` → `${target}/graphql`. When the API does not answer, the page gets a GraphQL error
 * naming it (code CANOPY_UNREACHABLE) instead of Vite's empty 502.
 */
function graphqlProxy(target: string): ProxyOptions {
  return {
    target,
    changeOrigin: true,
    // Subscriptions: GraphQL over WebSocket on the same path.
    ws: true,
    configure(proxy) {
      // Registered before Vite's own handler, which then only logs.
      proxy.on('error', (error, _req, res) => {
        if (!('writeHead' in res)) return; // a WebSocket: the client subscribes again
        if (res.headersSent || res.writableEnded) return;
        const reason = (error as NodeJS.ErrnoException).code ?? error.message;
        res.writeHead(502, { 'content-type': 'application/graphql-response+json' }).end(
          JSON.stringify({
            errors: [
              {
                message:
                  `Cannot reach the Canopy server at ${target} (${reason}): is it running? ` +
                  "The Vite dev proxy forwards /graphql to CANOPY_API, or to localhost at the API's PORT.",
                extensions: { code: 'CANOPY_UNREACHABLE' },
              },
            ],
          }),
        );
      });
    },
  };
}

export default defineConfig(({ mode }) => {
  // CANOPY_API and APP_PORT from the environment or from a .env file beside this config (as
  // VITE_* are); PORT, the API's own, from the environment only (the API reads no .env file).
  const env = loadEnv(mode, root, ['CANOPY_', 'APP_PORT']);
  const api = env.CANOPY_API || `http://localhost:${portFrom('PORT', process.env.PORT, DEFAULT_API_PORT)}`;
  const appPort = portFrom('APP_PORT', env.APP_PORT, DEFAULT_APP_PORT);
  return {
    root,
    // VITE_GRAPHQL_URL comes from the environment or from a .env file beside this config.
    envDir: root,
    oxc: { jsx: { runtime: 'automatic' } },
    // A port asked for is the port used: taken, Vite stops instead of trying the next one.
    server: { port: appPort, strictPort: Boolean(env.APP_PORT), proxy: { '/graphql': graphqlProxy(api) } },
    // Without a proxy of its own, `vite preview` uses the dev server's.
    preview: { port: 4173 },
    build: { outDir: 'dist', emptyOutDir: true },
  };
});
