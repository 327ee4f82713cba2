import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { expect } from 'vitest';
import { signDevToken } from '../../src/auth/devToken.js';
import { serveStatic, type StaticServer } from '../support/browser.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../support/server.js';

/**
 * The example app (examples/tree-explorer) as a user builds and serves it, with a Canopy server
 * for it: what the browser tests of the app start.
 */

export const EXAMPLE_CONFIG = fileURLToPath(new URL('../../examples/tree-explorer/vite.config.ts', import.meta.url));

/** The node types the app's operations are written for (`npm run dev` starts the API with them). */
export const EXAMPLE_NODE_TYPES = fileURLToPath(new URL('../../schema/catalog.graphql', import.meta.url));

export type ExampleTree = Array<{ id: string; name: string; parentId?: string }>;

/** Runs `action` with `vars` set in process.env (undefined: unset), then puts the previous values back. */
export async function withEnv<T>(vars: Record<string, string | undefined>, action: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  const assign = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  assign(vars);
  try {
    return await action();
  } finally {
    assign(previous);
  }
}

/** Creates `tree` (parents first) through the API. */
export async function createTree(server: TestServer, tree: ExampleTree): Promise<void> {
  for (const node of tree) {
    const created = await server.gql(`mutation ($input: CreateNodeInput!) { createNode(input: $input) { id } }`, {
      input: node,
    });
    expect(created.body.errors).toBeUndefined();
  }
}

/** The JWT_SECRET of the example's server. */
const EXAMPLE_SECRET = 'the-example-app-secret-of-32-bytes-or-more';

export interface Example {
  site: StaticServer;
  server: TestServer;
  /** The folder of the built app (to serve it from another origin too). */
  outDir: string;
  /** Stops the API server (before close(), to see the app without it). */
  stopServer(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A server (`options`, plus CORS_ORIGINS for the app's origin and the catalogue's NODE_TYPES)
 * holding `tree`, and the app built for it and served from its own origin.
 */
export async function startExample(options: TestServerOptions, tree: ExampleTree): Promise<Example> {
  const outDir = mkdtempSync(join(tmpdir(), 'canopy-example-'));
  let site: StaticServer | undefined;
  let server: TestServer | undefined;
  let stopped: Promise<void> | undefined;
  const stopServer = () => (stopped ??= server?.close() ?? Promise.resolve());
  const close = async () => {
    await site?.close();
    await stopServer();
    rmSync(outDir, { recursive: true, force: true });
  };
  try {
    // The app's origin must be known before the server starts: it is the one CORS origin allowed.
    site = await serveStatic(outDir);
    // The app signs in with a development token (`npm run -s tree -- token`) to a server that
    // asks for one.
    const started = await startTestServer({
      ...options,
      env: {
        NODE_TYPES: EXAMPLE_NODE_TYPES,
        ...options.env,
        CORS_ORIGINS: site.origin,
        AUTH: 'jwt',
        JWT_SECRET: EXAMPLE_SECRET,
      },
    });
    const token = await signDevToken(started.config.auth, 'example-app');
    server = {
      ...started,
      gql: (query, variables, headers) =>
        started.gql(query, variables, { authorization: `Bearer ${token}`, ...headers }),
    };

    // As `VITE_GRAPHQL_URL=... VITE_CANOPY_TOKEN=... npm run example:build` does; NODE_ENV is
    // vitest's `test` here, and Vite would keep it (React's development build), so the build gets
    // `production` back.
    await withEnv({ VITE_GRAPHQL_URL: `${server.url}/graphql`, VITE_CANOPY_TOKEN: token, NODE_ENV: 'production' }, () =>
      build({ configFile: EXAMPLE_CONFIG, logLevel: 'error', build: { outDir, emptyOutDir: true } }),
    );
    await createTree(server, tree);
    return { site, server, outDir, stopServer, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
