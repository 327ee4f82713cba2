import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { freePort } from './globalSetup.js';

/**
 * The real `npm start` as a process of its own, for the end-to-end tests (test/e2e/start*.test.ts):
 * started, waited for, asked, stopped, and whatever it left behind killed.
 */

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
// A start takes 5-10 s on an idle machine; a busy one (parallel test files) can take several times that.
export const START_TIMEOUT_MS = 90_000;
// A stop waits for DynamoDB Local to end, which may be writing its class archive (30 s at most).
export const STOP_TIMEOUT_MS = 45_000;

export interface Started {
  child: ChildProcess;
  port: number;
  dynamoPort: number;
  dataDir: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Every `npm start` of this file, exited or not: what it left behind is killed after its test. */
export const everStarted = new Set<Started>();
/** Processes that outlive one test (a describe's shared server); cleaned up by their describe. */
export const shared = new Set<Started>();
export const dataDirs: string[] = [];

export function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'canopy-e2e-'));
  dataDirs.push(dir);
  return dir;
}

export async function spawnStart(dataDir: string, dynamoPort?: number): Promise<Started> {
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

export function hasExited(started: Started): boolean {
  return started.child.exitCode !== null || started.child.signalCode !== null;
}

export async function waitUntil(
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

export async function status(started: Started, path: string): Promise<number> {
  try {
    const response = await fetch(`http://127.0.0.1:${started.port}${path}`);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

export async function startReady(dataDir: string): Promise<Started> {
  const started = await spawnStart(dataDir);
  await waitUntil(
    '/readyz to answer 200',
    async () => (await status(started, '/readyz')) === 200,
    START_TIMEOUT_MS,
    started,
  );
  return started;
}

export async function gql<T = any>(
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
export async function stop(started: Started, signal: NodeJS.Signals = 'SIGTERM') {
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

export interface ProcessRow {
  pid: number;
  ppid: number;
  pgid: number;
  args: string;
}

export function processTable(): ProcessRow[] {
  const text = execFileSync('ps', ['-ww', '-eo', 'pid=,ppid=,pgid=,args='], { encoding: 'utf8' });
  return text
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), pgid: Number(match[3]), args: match[4] ?? '' }));
}

/** What is left of the process group of `npm start` (npm leads it: it was spawned detached). */
export function groupOf(started: Started): ProcessRow[] {
  return processTable().filter((row) => row.pgid === started.child.pid);
}

export const isJava = (row: ProcessRow) => /^(\S*\/)?java\s/.test(row.args);

export function javaFor(dataDir: string): ProcessRow[] {
  return processTable().filter((row) => isJava(row) && row.args.includes(dataDir));
}

/** The node process running src/main.ts: the parent of the watchdog shell that runs Java. */
export function serverNodeFor(dataDir: string): ProcessRow | undefined {
  const table = processTable();
  const byPid = new Map(table.map((row) => [row.pid, row]));
  for (const row of table) {
    if (isJava(row) || !row.args.includes(dataDir)) continue;
    const parent = byPid.get(row.ppid);
    if (parent && /\bnode\b/.test(parent.args) && parent.args.includes('main.ts')) return parent;
  }
  return undefined;
}

export async function expectNoJavaWithin(dataDir: string, timeoutMs: number): Promise<void> {
  await waitUntil(`no java with ${dataDir}`, () => javaFor(dataDir).length === 0, timeoutMs).catch(() => undefined);
  expect(javaFor(dataDir).map((row) => row.args)).toEqual([]);
}

/** npm exiting is not enough: the server under it must not live on as an orphan. */
export async function expectGroupGoneWithin(started: Started, timeoutMs: number): Promise<void> {
  await waitUntil('the process group to exit', () => groupOf(started).length === 0, timeoutMs).catch(() => undefined);
  expect(groupOf(started).map((row) => row.args)).toEqual([]);
}

export function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** A failed test must not leave anything behind: its process group, then any Java it started. */
export function killLeftovers(which: (started: Started) => boolean): void {
  for (const started of everStarted) {
    if (!which(started)) continue;
    if (!hasExited(started) && started.child.pid !== undefined) kill(-started.child.pid, 'SIGKILL');
    // Orphans keep the group id after npm is gone.
    for (const row of groupOf(started)) kill(row.pid, 'SIGKILL');
    for (const row of javaFor(started.dataDir)) kill(row.pid, 'SIGKILL');
    everStarted.delete(started);
  }
}

/** After every test of a file: what its tests started, but for the describes' shared servers. */
export const killTestLeftovers = (): void => killLeftovers((started) => !shared.has(started));

/** After a file: everything it started, and its data folders. */
export function killAllLeftovers(): void {
  killLeftovers(() => true);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
