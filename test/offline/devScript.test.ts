import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProxyOptions, UserConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import exampleConfig from '../../examples/tree-explorer/vite.config.js';

/**
 * `npm run dev`: the API (`npm start`) and the example app (`npm run example`) in one terminal,
 * their ports from the environment, the app's proxy following the API's. Checked without starting
 * either: the script, and the example's Vite configuration as the dev server resolves it.
 */
const scripts = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts as Record<
  string,
  string
>;

/** The example's configuration with these variables set (undefined: unset), the environment restored after. */
function configWith(env: Record<string, string | undefined>): UserConfig {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const set = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  set(env);
  try {
    return exampleConfig({ command: 'serve', mode: 'development' });
  } finally {
    set(saved);
  }
}

const served = (config: UserConfig) => ({
  port: config.server?.port,
  strictPort: config.server?.strictPort,
  api: (config.server?.proxy?.['/graphql'] as ProxyOptions).target,
});

describe('npm run dev', () => {
  it('runs npm start and npm run example side by side, prefixed, stopping both when either stops', () => {
    // exec: npm's signal reaches concurrently, which passes it to both process trees.
    expect(scripts.dev).toMatch(/^(\w+=\S+ )*exec concurrently /);
    expect(scripts.dev!.split(' ')).toEqual(
      expect.arrayContaining(['--kill-others', '--names', 'api,app', 'npm:start', 'npm:example']),
    );
  });

  it('logs readable lines (LOG_FORMAT pretty) through the pipes of concurrently, unless LOG_FORMAT is set', () => {
    // The script as npm runs it (sh -c), with a `concurrently` on the PATH that says what it got.
    const bin = mkdtempSync(join(tmpdir(), 'canopy-dev-'));
    try {
      writeFileSync(join(bin, 'concurrently'), '#!/bin/sh\necho "$LOG_FORMAT $*"\n');
      chmodSync(join(bin, 'concurrently'), 0o755);
      const run = (env: Record<string, string>) =>
        execFileSync('sh', ['-c', scripts.dev!], { env: { PATH: `${bin}:${process.env.PATH}`, ...env } })
          .toString()
          .trim();
      expect(run({})).toMatch(/^pretty --kill-others .* npm:start npm:example$/);
      expect(run({ LOG_FORMAT: '' })).toMatch(/^pretty /);
      expect(run({ LOG_FORMAT: 'json' })).toMatch(/^json /);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('starts the API with the node types of the catalogue (the app reads them), unless NODE_TYPES is set', () => {
    const bin = mkdtempSync(join(tmpdir(), 'canopy-dev-'));
    try {
      writeFileSync(join(bin, 'concurrently'), '#!/bin/sh\necho "$NODE_TYPES"\n');
      chmodSync(join(bin, 'concurrently'), 0o755);
      const run = (env: Record<string, string>) =>
        execFileSync('sh', ['-c', scripts.dev!], { env: { PATH: `${bin}:${process.env.PATH}`, ...env } })
          .toString()
          .trim();
      expect(run({})).toBe('./schema/catalog.graphql');
      expect(run({ NODE_TYPES: 'types/shop.graphql' })).toBe('types/shop.graphql');
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('serves the app on APP_PORT and forwards /graphql to the API on PORT, unless CANOPY_API says where', () => {
    const unset = { PORT: undefined, APP_PORT: undefined, CANOPY_API: undefined };
    expect(served(configWith(unset))).toEqual({ port: 5173, strictPort: false, api: 'http://localhost:4000' });
    expect(served(configWith({ ...unset, PORT: '4333', APP_PORT: '5333' }))).toEqual({
      port: 5333,
      strictPort: true,
      api: 'http://localhost:4333',
    });
    expect(served(configWith({ ...unset, PORT: '4333', CANOPY_API: 'http://api.internal:4100' })).api).toBe(
      'http://api.internal:4100',
    );
    expect(() => configWith({ ...unset, APP_PORT: '80a' })).toThrow(
      'APP_PORT must be a port number (1 to 65535), got "80a"',
    );
  });
});
