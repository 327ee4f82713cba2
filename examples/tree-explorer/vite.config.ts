import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The tree explorer, built by Vite alone: Vite 8 transpiles TSX itself (Oxc), with React's
 * automatic JSX runtime, so no React plugin is needed. Runs from the repository root:
 * `npm run example` (dev server) and `npm run example:build` (into examples/tree-explorer/dist).
 */
const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  // VITE_GRAPHQL_URL comes from the environment or from a .env file beside this config.
  envDir: root,
  oxc: { jsx: { runtime: 'automatic' } },
  server: { port: 5173 },
  preview: { port: 4173 },
  build: { outDir: 'dist', emptyOutDir: true },
});
