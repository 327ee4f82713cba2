import { fileURLToPath } from 'node:url';
import { defineConfig, loadEnv, type ProxyOptions } from 'vite';

/**
 * The tree explorer, built by Vite alone: Vite 8 transpiles TSX itself (Oxc), with React's
 * automatic JSX runtime, so no React plugin is needed. Runs from the repository root:
 * `npm run example` (dev server) and `npm run example:build` (into examples/tree-explorer/dist).
 *
 * The dev server (and `vite preview`, which takes the same proxy) forwards `/graphql` to the
 * API, `CANOPY_API` (default http://localhost:4000): the app calls its own origin, so the API
 * needs no CORS setting for it.
 */
const root = fileURLToPath(new URL('.', import.meta.url));

const DEFAULT_API = 'http://localhost:4000';

/**
 * `/graphql` → `${target}/graphql`. When the API does not answer, the page gets a GraphQL error
 * naming it (code CANOPY_UNREACHABLE) instead of Vite's empty 502.
 */
function graphqlProxy(target: string): ProxyOptions {
  return {
    target,
    changeOrigin: true,
    configure(proxy) {
      // Registered before Vite's own handler, which then only logs.
      proxy.on('error', (error, _req, res) => {
        if (!('writeHead' in res)) return; // a WebSocket: none here
        if (res.headersSent || res.writableEnded) return;
        const reason = (error as NodeJS.ErrnoException).code ?? error.message;
        res.writeHead(502, { 'content-type': 'application/graphql-response+json' }).end(
          JSON.stringify({
            errors: [
              {
                message:
                  `Cannot reach the Canopy server at ${target} (${reason}): is it running? ` +
                  'The Vite dev proxy forwards /graphql to CANOPY_API.',
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
  // CANOPY_API from the environment or from a .env file beside this config (as VITE_* are).
  const api = loadEnv(mode, root, 'CANOPY_').CANOPY_API || DEFAULT_API;
  return {
    root,
    // VITE_GRAPHQL_URL comes from the environment or from a .env file beside this config.
    envDir: root,
    oxc: { jsx: { runtime: 'automatic' } },
    server: { port: 5173, proxy: { '/graphql': graphqlProxy(api) } },
    // Without a proxy of its own, `vite preview` uses the dev server's.
    preview: { port: 4173 },
    build: { outDir: 'dist', emptyOutDir: true },
  };
});
