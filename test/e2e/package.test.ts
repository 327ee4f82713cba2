import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../support/globalSetup.js';
import { REPO_ROOT, START_TIMEOUT_MS, waitUntil } from '../support/npmStart.js';
import { uniqueTable } from '../support/server.js';

/**
 * The package as another team gets it: `npm pack` (its `prepack` builds), the tarball installed
 * into an empty project, then its `canopy` command (start, and a maintenance command) and its
 * library entry mounted in a plain Apollo Server, on the test run's DynamoDB Local.
 */

const sh = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'canopy-package-'));
const app = join(work, 'app');
const canopyBin = join(app, 'node_modules', '.bin', 'canopy');
const SECRET = 'a-package-test-secret-of-32-bytes-or-more';
const children: ChildProcess[] = [];
const FIXTURES = join(REPO_ROOT, 'test', 'e2e', 'fixtures');

/** The environment of the installed command and the mounting app: development, the run's DynamoDB, JWTs. */
function envOf(table: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    DYNAMODB_TABLE: table,
    AUTH: 'jwt',
    JWT_SECRET: SECRET,
    LOG_LEVEL: 'warn',
    ...extra,
  };
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name.startsWith('npm_')) delete env[name];
  return env;
}

/** Packs a copy of the repository's package files (a build of its own: no other test's dist/ is touched). */
async function packTarball(): Promise<string> {
  const stage = join(work, 'stage');
  mkdirSync(stage);
  for (const entry of [
    'src',
    'schema',
    'docs',
    'README.md',
    'LICENSE',
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
  ])
    cpSync(join(REPO_ROOT, entry), join(stage, entry), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(stage, 'node_modules'));
  const { stdout } = await sh('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: stage,
    env: envOf('unused'),
    maxBuffer: 1 << 26,
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{
    filename: string;
    files: { path: string }[];
  }>;
  const files = packed!.files.map((file) => file.path);
  expect(files).toEqual(expect.arrayContaining(['dist/src/cli/canopy.js', 'dist/src/server/createCanopy.d.ts']));
  // Compiled code, its types and the schema: no sources, no tests.
  expect(files.filter((path) => path.endsWith('.test.js') || /^src\//.test(path))).toEqual([]);
  // docs/deploy.md's commands are the ones this test runs (npx runs node_modules/.bin/canopy).
  const page = readFileSync(join(REPO_ROOT, 'docs', 'deploy.md'), 'utf8');
  for (const command of [`npm install ./${packed!.filename}`, 'npx canopy start', 'npx canopy verify'])
    expect(page).toContain(command);
  return join(work, packed!.filename);
}

/** Runs a long-lived process until `ready` matches its output; answers its output so far. */
async function serve(args: string[], env: NodeJS.ProcessEnv, ready: RegExp) {
  const child = spawn(process.execPath, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await waitUntil(
    `${args.join(' ')} to be ready`,
    () => {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode}:\n${output}`);
      return ready.test(output);
    },
    START_TIMEOUT_MS,
  );
  return {
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

async function post(url: string, query: string, token?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('the packed package, installed into an empty project', () => {
  let token: string;

  beforeAll(async () => {
    const tarball = await packTarball();
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    // The merging example's library besides, at the version this repository locks.
    const tools = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/@graphql-tools/schema/package.json'), 'utf8'));
    const install = ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball];
    await sh('npm', [...install, `@graphql-tools/schema@${tools.version}`], {
      cwd: app,
      env: envOf('unused'),
      maxBuffer: 1 << 26,
    });
    expect(readdirSync(join(app, 'node_modules', 'canopy'))).toContain('dist');
    const made = await sh(canopyBin, ['token', '--sub', 'app', '--hours', '1'], { env: envOf('unused') });
    token = made.stdout.trim();
  }, 300_000);

  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  });

  it('has the canopy command: its version, and its usage naming itself', async () => {
    const { stdout } = await sh(canopyBin, ['--version']);
    expect(stdout.trim()).toMatch(/^canopy \d+\.\d+\.\d+/);
    const usage = await sh(canopyBin, []).catch((error: { code: number; stderr: string }) => error);
    expect(usage).toMatchObject({ code: 2 });
    expect((usage as { stderr: string }).stderr).toMatch(/^canopy start: /);
    expect((usage as { stderr: string }).stderr).toContain('usage: canopy verify');
    expect((usage as { stderr: string }).stderr).not.toContain('npm run');
  });

  it('serves with `canopy start`, and `canopy verify` checks what it seeded', async () => {
    const table = uniqueTable();
    const port = await freePort();
    const server = await serve(
      [canopyBin, 'start'],
      envOf(table, { PORT: String(port), LOG_LEVEL: 'info' }),
      /ready at /,
    );
    const query = '{ node(id: "catalog") { id depth childCount } }';
    const answer = await post(`http://127.0.0.1:${port}/graphql`, query, token);
    expect(answer.body.data).toEqual({ node: { id: 'catalog', depth: 0, childCount: expect.any(Number) } });
    expect((await post(`http://127.0.0.1:${port}/graphql`, query)).status).toBe(401);
    expect(await server.stop()).toBe(0);
    const verified = await sh(canopyBin, ['verify'], { env: envOf(table) });
    expect(verified.stdout).toMatch(/^28 nodes checked .*: 0 problem\(s\)/);
  }, 180_000);

  it("mounts in the application's own Apollo Server: a query, a mutation, its cost, its callers", async () => {
    const fixture = readFileSync(join(FIXTURES, 'mountCanopy.mjs'), 'utf8');
    // docs/deploy.md shows this program, from its imports on.
    expect(readFileSync(join(REPO_ROOT, 'docs', 'deploy.md'), 'utf8')).toContain(
      fixture.slice(fixture.indexOf('import ')),
    );
    writeFileSync(join(app, 'mountCanopy.mjs'), fixture);
    const port = await freePort();
    const env = envOf(uniqueTable(), { APP_PORT: String(port) });
    const mounted = await serve(['mountCanopy.mjs'], env, /mounted at /);
    const url = `http://127.0.0.1:${port}/`;
    const created = await post(url, 'mutation { createNode(input: { name: "Mounted" }) { id name depth } }', token);
    expect(created.body.data.createNode).toMatchObject({ name: 'Mounted', depth: 0 });
    expect(created.body.extensions.dynamodb.itemsWritten).toBeGreaterThan(0);
    const read = await post(url, `{ node(id: "${created.body.data.createNode.id}") { name ancestors { id } } }`, token);
    expect(read.body.data).toEqual({ node: { name: 'Mounted', ancestors: [] } });
    expect(read.body.extensions.dynamodb.requests).toBeGreaterThan(0);
    const anonymous = await post(url, '{ roots(first: 1) { nodes { id } } }');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await mounted.stop()).toBe(0);
  }, 120_000);

  it("merges with the application's own schema (SCHEMA_PREFIX), one context for both", async () => {
    cpSync(join(FIXTURES, 'mergeCanopy.mjs'), join(app, 'mergeCanopy.mjs'));
    const port = await freePort();
    const env = envOf(uniqueTable(), { APP_PORT: String(port), SCHEMA_PREFIX: 'Tree' });
    const merged = await serve(['mergeCanopy.mjs'], env, /mounted at /);
    const query = '{ greeting treeNode(id: "catalog") { name children(first: 1) { nodes { depth } } } }';
    const answer = await post(`http://127.0.0.1:${port}/`, query, token);
    expect(answer.body.data).toEqual({
      greeting: 'hello, the app',
      treeNode: { name: 'Catalog', children: { nodes: [{ depth: 1 }] } },
    });
    expect(answer.body.extensions.dynamodb.requests).toBeGreaterThan(0);
    expect(await merged.stop()).toBe(0);
  }, 120_000);
});
