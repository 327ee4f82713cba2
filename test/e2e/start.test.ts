import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/globalSetup.js';
import { outsideAddress, reaches } from '../support/network.js';

/**
 * The real `npm start`, as a user runs it: the server on the embedded DynamoDB Local, with its
 * files in DATA_DIR. Every test checks that no Java process outlives the server, however it ends.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
// A start takes 5-10 s on an idle machine; a busy one (parallel test files) can take several times that.
const START_TIMEOUT_MS = 90_000;
/** JWT_SECRET of the production-build server. */
const SECRET = 'a-production-secret-of-32-bytes-or-more';
const STOP_TIMEOUT_MS = 15_000;

interface Started {
  child: ChildProcess;
  port: number;
  dynamoPort: number;
  dataDir: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Every `npm start` of this file, exited or not: what it left behind is killed after its test. */
const everStarted = new Set<Started>();
/** Processes that outlive one test (a describe's shared server); cleaned up by their describe. */
const shared = new Set<Started>();
const dataDirs: string[] = [];

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'canopy-e2e-'));
  dataDirs.push(dir);
  return dir;
}

async function spawnStart(dataDir: string, dynamoPort?: number): Promise<Started> {
  const port = await freePort();
  const localPort = dynamoPort ?? (await freePort());
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('VITEST') || name.startsWith('DYNAMODB_') || name === 'NODE_ENV') delete env[name];
  }
  delete env.SEED_DEMO;
  delete env.TREE_STRATEGY;
  // The SDK's Node-version warning must stay off without the variable: the server turns it off itself.
  delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  Object.assign(env, { PORT: String(port), DYNAMODB_LOCAL_PORT: String(localPort), DATA_DIR: dataDir });

  // detached: the process group can be killed as a whole when a test gives up on it.
  const child = spawn('npm', ['start'], { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const started: Started = { child, port, dynamoPort: localPort, dataDir, output: () => output, exited };
  everStarted.add(started);
  return started;
}

function hasExited(started: Started): boolean {
  return started.child.exitCode !== null || started.child.signalCode !== null;
}

async function waitUntil(
  what: string,
  condition: () => Promise<boolean> | boolean,
  timeoutMs: number,
  started?: Started,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (started && hasExited(started)) {
      throw new Error(`npm start exited while waiting for ${what}:\n${started.output()}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${started ? `:\n${started.output()}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function status(started: Started, path: string): Promise<number> {
  try {
    const response = await fetch(`http://127.0.0.1:${started.port}${path}`);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

async function startReady(dataDir: string): Promise<Started> {
  const started = await spawnStart(dataDir);
  await waitUntil(
    '/readyz to answer 200',
    async () => (await status(started, '/readyz')) === 200,
    START_TIMEOUT_MS,
    started,
  );
  return started;
}

async function gql<T = any>(
  started: Started,
  query: string,
  variables?: Record<string, unknown>,
): Promise<{ data?: T; errors?: unknown[]; extensions?: Record<string, any> }> {
  const response = await fetch(`http://127.0.0.1:${started.port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: T; errors?: unknown[]; extensions?: Record<string, any> };
}

/** Sends `signal` to npm alone, as a supervisor does, and waits for it to exit. */
async function stop(started: Started, signal: NodeJS.Signals = 'SIGTERM') {
  started.child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`npm start did not exit within ${STOP_TIMEOUT_MS} ms of ${signal}:\n${started.output()}`)),
      STOP_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([started.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface ProcessRow {
  pid: number;
  ppid: number;
  pgid: number;
  args: string;
}

function processTable(): ProcessRow[] {
  const text = execFileSync('ps', ['-ww', '-eo', 'pid=,ppid=,pgid=,args='], { encoding: 'utf8' });
  return text
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), pgid: Number(match[3]), args: match[4] ?? '' }));
}

/** What is left of the process group of `npm start` (npm leads it: it was spawned detached). */
function groupOf(started: Started): ProcessRow[] {
  return processTable().filter((row) => row.pgid === started.child.pid);
}

const isJava = (row: ProcessRow) => /^(\S*\/)?java\s/.test(row.args);

function javaFor(dataDir: string): ProcessRow[] {
  return processTable().filter((row) => isJava(row) && row.args.includes(dataDir));
}

/** The node process running src/main.ts: the parent of the watchdog shell that runs Java. */
function serverNodeFor(dataDir: string): ProcessRow | undefined {
  const table = processTable();
  const byPid = new Map(table.map((row) => [row.pid, row]));
  for (const row of table) {
    if (isJava(row) || !row.args.includes(dataDir)) continue;
    const parent = byPid.get(row.ppid);
    if (parent && /\bnode\b/.test(parent.args) && parent.args.includes('main.ts')) return parent;
  }
  return undefined;
}

async function expectNoJavaWithin(dataDir: string, timeoutMs: number): Promise<void> {
  await waitUntil(`no java with ${dataDir}`, () => javaFor(dataDir).length === 0, timeoutMs).catch(() => undefined);
  expect(javaFor(dataDir).map((row) => row.args)).toEqual([]);
}

/** npm exiting is not enough: the server under it must not live on as an orphan. */
async function expectGroupGoneWithin(started: Started, timeoutMs: number): Promise<void> {
  await waitUntil('the process group to exit', () => groupOf(started).length === 0, timeoutMs).catch(() => undefined);
  expect(groupOf(started).map((row) => row.args)).toEqual([]);
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** A failed test must not leave anything behind: its process group, then any Java it started. */
function killLeftovers(which: (started: Started) => boolean): void {
  for (const started of everStarted) {
    if (!which(started)) continue;
    if (!hasExited(started) && started.child.pid !== undefined) kill(-started.child.pid, 'SIGKILL');
    // Orphans keep the group id after npm is gone.
    for (const row of groupOf(started)) kill(row.pid, 'SIGKILL');
    for (const row of javaFor(started.dataDir)) kill(row.pid, 'SIGKILL');
    everStarted.delete(started);
  }
}

afterEach(() => killLeftovers((started) => !shared.has(started)));

afterAll(() => {
  killLeftovers(() => true);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const ROOTS = /* GraphQL */ `
  query {
    roots(first: 100) {
      nodes { id name childCount }
      pageInfo { hasNextPage }
    }
  }
`;

const SUBTREE = /* GraphQL */ `
  query ($id: ID!) {
    node(id: $id) {
      descendants(minDepth: 0, first: 1000) {
        nodes { id depth }
        pageInfo { hasNextPage }
      }
    }
  }
`;

interface TreeCensus {
  roots: string[];
  nodes: number;
  maxDepth: number;
}

async function census(started: Started): Promise<TreeCensus> {
  const roots = await gql(started, ROOTS);
  expect(roots.errors).toBeUndefined();
  expect(roots.data.roots.pageInfo.hasNextPage).toBe(false);
  const rootIds: string[] = roots.data.roots.nodes.map((node: { id: string }) => node.id);
  let nodes = 0;
  let maxDepth = 0;
  for (const id of rootIds) {
    const subtree = await gql(started, SUBTREE, { id });
    expect(subtree.errors).toBeUndefined();
    expect(subtree.data.node.descendants.pageInfo.hasNextPage).toBe(false);
    for (const node of subtree.data.node.descendants.nodes as Array<{ depth: number }>) {
      nodes += 1;
      maxDepth = Math.max(maxDepth, node.depth);
    }
  }
  return { roots: rootIds, nodes, maxDepth };
}

// One server's life, in order: first start on an empty DATA_DIR, a write, SIGTERM, a restart.
describe('npm start, then a restart on the same DATA_DIR', () => {
  let server: Started;
  let seeded: TreeCensus;

  beforeAll(async () => {
    server = await startReady(freshDataDir());
    shared.add(server);
  }, START_TIMEOUT_MS);

  afterAll(() => killLeftovers((started) => started === server));

  it('refuses an invalid configuration with every problem, no stack, and exit code 2; warns of typos', async () => {
    const env = {
      ...process.env,
      // A typo: read by no one, named after the problems.
      AUHT: 'jwt',
      TREE_STRATEGY: 'foo',
      PORT: 'abc',
      MAX_TREE_DEPTH: '200',
      SEED_DEMO: 'nope',
      DYNAMODB_ENDPOINT: 'not-a-url',
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    for (const name of ['PORT', 'DYNAMODB_ENDPOINT', 'TREE_STRATEGY', 'MAX_TREE_DEPTH', 'SEED_DEMO']) {
      expect(stderr).toMatch(new RegExp(`^  - ${name} must be `, 'm'));
    }
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).toMatch(/^warning: unknown variable AUHT: did you mean AUTH\?$/m);
  });

  it('refuses to start in production without AUTH, or with the built-in cursor secret', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(await freePort()),
      DATA_DIR: freshDataDir(),
    };
    delete env.AUTH;
    delete env.CURSOR_SECRET;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/^ {2}- AUTH must be set with NODE_ENV=production: jwt, apikey, or none/m);
    expect(stderr).toMatch(/^ {2}- CURSOR_SECRET must be set with NODE_ENV=production/m);
  });

  it('runs from the production build (npm run build, then node dist/src/main.js)', { timeout: 180_000 }, async () => {
    execFileSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'ignore' });
    const port = await freePort();
    const dynamoPort = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      DYNAMODB_LOCAL_PORT: String(dynamoPort),
      DATA_DIR: freshDataDir(),
      NODE_ENV: 'production',
      HOST: '0.0.0.0',
      AUTH: 'jwt',
      JWT_SECRET: SECRET,
      CURSOR_SECRET: 'a-cursor-secret',
    };
    for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name];
    const child = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await waitUntil(
        'the built server to be ready',
        () => /"msg":"Canopy \S+ ready at /.test(output),
        START_TIMEOUT_MS,
      );
      const query = JSON.stringify({ query: '{ node(id: "catalog") { id depth } }' });
      const token = await new SignJWT({ sub: 'ops', exp: Math.floor(Date.now() / 1000) + 60 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(SECRET));
      const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: query,
      });
      expect(await response.json()).toMatchObject({ data: { node: { id: 'catalog', depth: 0 } } });
      const anonymous = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: query,
      });
      expect(anonymous.status).toBe(401);
      // HOST=0.0.0.0 (a container's setting): both listen on every interface.
      if (outsideAddress) {
        expect(await reaches(outsideAddress, port)).toBe(true);
        expect(await reaches(outsideAddress, dynamoPort)).toBe(true);
      }
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('refuses to start when the DynamoDB Local port is taken, before starting it, with exit code 2', async () => {
    const squatter = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    try {
      const started = await spawnStart(freshDataDir(), (squatter.address() as AddressInfo).port);
      const { code } = await started.exited;
      expect(code).toBe(2);
      expect(started.output()).toMatch(/^ {2}- DYNAMODB_LOCAL_PORT: port \d+ is already in use/m);
    } finally {
      squatter.close();
    }
  });

  it('says so and stops when its DynamoDB Local dies', async () => {
    const started = await startReady(freshDataDir());
    execFileSync('pkill', ['-KILL', '-f', `^java .* -port ${started.dynamoPort} `]);
    const { code } = await started.exited;
    expect(code).toBe(1);
    expect(started.output()).toMatch(/DynamoDB Local exited unexpectedly/);
  });

  it.skipIf(!outsideAddress)('listens on this machine only by default: the server and its DynamoDB Local', async () => {
    expect(await reaches('127.0.0.1', server.port)).toBe(true);
    expect(await reaches('127.0.0.1', server.dynamoPort)).toBe(true);
    expect(await reaches(outsideAddress!, server.port)).toBe(false);
    expect(await reaches(outsideAddress!, server.dynamoPort)).toBe(false);
  });

  it('answers /healthz and /readyz', async () => {
    expect(await status(server, '/healthz')).toBe(200);
    expect(await status(server, '/readyz')).toBe(200);
  });

  it('seeds the demo tree into the empty table and reports the cost of a query', async () => {
    const roots = await gql(server, ROOTS);
    expect(roots.errors).toBeUndefined();
    expect(roots.data.roots.nodes.length).toBeGreaterThan(0);
    expect(roots.extensions?.dynamodb?.requests).toBeGreaterThan(0);
    seeded = await census(server);
    expect(seeded.nodes).toBeGreaterThanOrEqual(20);
    expect(seeded.nodes).toBeLessThanOrEqual(60);
    expect(seeded.maxDepth).toBe(3);
    // One log line says what started, and the SDK's Node version warning is not printed.
    const logged = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; level?: number });
    const ready = logged.find((line) => line.msg?.startsWith('Canopy '));
    expect(ready?.level).toBe(30);
    expect(ready?.msg).toMatch(
      new RegExp(
        `^Canopy \\d+\\.\\d+\\.\\d+ ready at http://127\\.0\\.0\\.1:${server.port}/graphql; ` +
          'strategy adjacency; federation off; ' +
          'auth none \\(anyone who reaches the port may read and change every tree\\); ' +
          `table tree on the embedded DynamoDB Local at 127\\.0\\.0\\.1:${server.dynamoPort}, files in .+; ` +
          `demo tree seeded \\(${seeded.nodes} nodes\\)$`,
      ),
    );
    expect(server.output()).not.toMatch(/NodeVersionSupportWarning|DeprecationWarning/);
  });

  it('keeps a tree command off the data it holds: refused, and told where its DynamoDB Local answers', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: server.dataDir,
      DYNAMODB_LOCAL_PORT: String(await freePort()),
    };
    for (const name of Object.keys(env))
      if (name.startsWith('VITEST') || name === 'DYNAMODB_ENDPOINT') delete env[name];
    const run = spawn(process.execPath, ['--import', 'tsx', 'src/cli/tree.ts', 'verify'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    run.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await new Promise<number | null>((resolve) => run.once('exit', resolve))).toBe(1);
    expect(stderr).toMatch(
      new RegExp(`is in use by process \\d+ .*DYNAMODB_ENDPOINT=http://localhost:${server.dynamoPort}`),
    );
  });

  it('serves GraphiQL to a browser', async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('GraphiQL');
  });

  it('creates a node', async () => {
    const created = await gql(
      server,
      `mutation { createNode(input: { id: "kept-across-restart", name: "Kept" }) { id } }`,
    );
    expect(created).toMatchObject({ data: { createNode: { id: 'kept-across-restart' } } });
  });

  it(
    'exits on SIGTERM and stops its DynamoDB Local',
    async () => {
      expect(javaFor(server.dataDir)).toHaveLength(1);
      const exit = await stop(server, 'SIGTERM');
      expect(exit).toEqual({ code: 0, signal: null });
      await expectGroupGoneWithin(server, 2_000);
      await expectNoJavaWithin(server.dataDir, 2_000);
    },
    STOP_TIMEOUT_MS + 5_000,
  );

  it(
    'keeps the data across a restart and does not seed the demo tree twice',
    async () => {
      const again = await startReady(server.dataDir);
      const kept = await gql(again, `{ node(id: "kept-across-restart") { id name parentId } }`);
      expect(kept).toMatchObject({ data: { node: { id: 'kept-across-restart', name: 'Kept', parentId: null } } });
      const after = await census(again);
      expect(after.roots.length).toBe(seeded.roots.length + 1);
      expect(after.nodes).toBe(seeded.nodes + 1);
      await stop(again);
      await expectGroupGoneWithin(again, 2_000);
      await expectNoJavaWithin(again.dataDir, 2_000);
    },
    START_TIMEOUT_MS + STOP_TIMEOUT_MS,
  );
});

describe('npm start, stopped before it is ready', () => {
  it(
    'leaves no java after a SIGTERM 1.5 s after spawn',
    async () => {
      const started = await spawnStart(freshDataDir());
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await stop(started, 'SIGTERM');
      await expectGroupGoneWithin(started, 5_000);
      await expectNoJavaWithin(started.dataDir, 5_000);
    },
    START_TIMEOUT_MS + STOP_TIMEOUT_MS,
  );

  it(
    'leaves no java after a SIGTERM while DynamoDB Local starts',
    async () => {
      const started = await spawnStart(freshDataDir());
      await waitUntil('java to start', () => javaFor(started.dataDir).length > 0, START_TIMEOUT_MS, started);
      await stop(started, 'SIGTERM');
      await expectGroupGoneWithin(started, 5_000);
      await expectNoJavaWithin(started.dataDir, 5_000);
    },
    START_TIMEOUT_MS + STOP_TIMEOUT_MS,
  );

  it(
    'leaves no java after a SIGKILL of the server process while it starts',
    async () => {
      const started = await spawnStart(freshDataDir());
      await waitUntil('java to start', () => serverNodeFor(started.dataDir) !== undefined, START_TIMEOUT_MS, started);
      const node = serverNodeFor(started.dataDir);
      expect(node).toBeDefined();
      kill(node!.pid, 'SIGKILL');
      // Java stops as it does on SIGTERM, which takes longer while it is still starting on a
      // loaded machine (the rest of the suite runs beside it).
      await expectNoJavaWithin(started.dataDir, 15_000);
      await expectGroupGoneWithin(started, 5_000);
    },
    START_TIMEOUT_MS + STOP_TIMEOUT_MS,
  );
});
