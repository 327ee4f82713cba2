/**
 * How long `npm start` takes to be ready, and where the time goes (`npm run bench:start`):
 *
 *   npm run bench:start                              # 5 rounds: a cold and a warm start each
 *   npm run bench:start -- --rounds 9 --seconds 10
 *   npm run bench:start -- --baseline ../canopy-before   # and another checkout, in turns
 *
 * Each round starts the real `npm start` twice on a new DATA_DIR (in the system's temporary
 * folder, with ports of its own from 4300 and 8300): cold (an empty folder: the table is created
 * and the demo tree seeded) then warm (the same folder again), and times each from the spawn to
 * GET /readyz answering 200, then SIGTERM to its exit. After the warm start it runs a steady
 * workload (a `descendants` query of the demo tree from 4 clients) for two windows of `--seconds`
 * (5), and prints the rate of each: the first window is what a fresh start serves, the second
 * how the servers' code warms up. With `--baseline DIR` (a checkout of another version with its
 * node_modules, e.g. `git worktree add DIR REF` and a link to this node_modules), both versions
 * take turns in every round, the first alternating, so that a busy machine weighs on both alike:
 * compare the ratios, and the medians. The load average is printed with every start.
 *
 * Where the time goes comes from the start line's `startupMs` (ms since the server's process
 * started: Java spawned, the server's modules loaded, Java up, DynamoDB Local answering, table
 * ready, checks and seed done, HTTP listening), and before that npm and Node themselves (spawn
 * to the process's start). The first start of a checkout also writes the class-data archive when
 * it stops (docs/operations.md, How long a start takes): delete node_modules/.cache/canopy to
 * measure that again. Every start is written to test-artifacts/bench-start.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = join(REPO_ROOT, 'test-artifacts', 'bench-start.json');
const READY_TIMEOUT_MS = 120_000;
const CLIENTS = 4;
const WORKLOAD = '{ node(id: "catalog") { descendants(minDepth: 0, first: 100) { nodes { id depth } } } }';
/** The phases of the start line's startupMs, in order. */
const PHASES = [
  'dynamodbLocalSpawned',
  'serverModulesLoaded',
  'javaUp',
  'dynamodbLocalAnswered',
  'tableReady',
  'seeded',
  'listening',
  'ready',
] as const;

const { values: options } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '5' },
    baseline: { type: 'string' },
  },
});
const ROUNDS = Number(options.rounds);
const SECONDS = Number(options.seconds);
if (!(ROUNDS >= 1) || !(SECONDS >= 0)) {
  console.error('usage: npm run bench:start -- [--rounds N>=1] [--seconds S>=0] [--baseline DIR]');
  process.exit(2);
}
const VERSIONS = [
  { name: 'work tree', dir: REPO_ROOT },
  ...(options.baseline ? [{ name: 'baseline', dir: resolve(options.baseline) }] : []),
];

interface Start {
  version: string;
  round: number;
  kind: 'cold' | 'warm';
  /** 1-minute load average when it started. */
  load: number;
  /** Spawn to GET /readyz answering 200. */
  readyMs: number;
  /** Spawn to the server's process start (npm, then Node). */
  processMs?: number;
  /** The start line's startupMs (ms since the server's process started), when it has one. */
  startupMs?: Partial<Record<(typeof PHASES)[number], number>>;
  /** SIGTERM to exit. */
  stopMs: number;
  /** Warm starts: operations per second in the first and the second window of the workload. */
  rates?: [number, number];
}

/** A started `npm start`: its process (leading its own process group) and what it printed. */
interface Running {
  child: ChildProcess;
  port: number;
  spawnedAt: number;
  output(): string;
  exited: Promise<void>;
}

const running = new Set<Running>();
const killAll = () => {
  for (const r of running) if (r.child.pid !== undefined) kill(-r.child.pid);
};
process.once('SIGINT', () => {
  killAll();
  process.exit(130);
});

const starts: Start[] = [];

/** The rounds, each version in turn (the first alternating), then the summary. */
async function main(): Promise<void> {
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? VERSIONS : [...VERSIONS].reverse();
      for (const version of order) await measureRound(version, round);
    }
  } finally {
    killAll();
  }
  mkdirSync(join(REPO_ROOT, 'test-artifacts'), { recursive: true });
  writeFileSync(RESULTS, JSON.stringify({ rounds: ROUNDS, seconds: SECONDS, starts }, null, 2));
  printSummary();
}

/** A cold start on a new DATA_DIR, then a warm one on it with the workload. */
async function measureRound(version: { name: string; dir: string }, round: number): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'canopy-bench-start-'));
  try {
    for (const kind of ['cold', 'warm'] as const) {
      const start = await measureStart(version, dataDir, kind === 'warm' ? SECONDS : 0);
      starts.push({ version: version.name, round, kind, ...start });
      console.log(row(starts.at(-1)!));
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measureStart(
  version: { dir: string },
  dataDir: string,
  seconds: number,
): Promise<Omit<Start, 'version' | 'round' | 'kind'>> {
  const load = loadavg()[0]!;
  const server = await spawnStart(version.dir, dataDir);
  try {
    await until(async () => (await status(server, '/readyz')) === 200, server);
    const readyMs = Date.now() - server.spawnedAt;
    const line = await readyLine(server);
    const rates = seconds > 0 ? await workload(server, seconds) : undefined;
    const stopping = Date.now();
    server.child.kill('SIGTERM');
    await server.exited;
    const stopMs = Date.now() - stopping;
    const startupMs = line?.startupMs;
    const processMs =
      line && startupMs?.ready !== undefined ? Date.parse(line.time) - startupMs.ready - server.spawnedAt : undefined;
    return { load, readyMs, processMs, startupMs, stopMs, ...(rates ? { rates } : {}) };
  } finally {
    if (server.child.pid !== undefined) kill(-server.child.pid);
    running.delete(server);
  }
}

async function spawnStart(dir: string, dataDir: string): Promise<Running> {
  const port = await freePort(4300);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('DYNAMODB_') || ['NODE_ENV', 'SEED_DEMO', 'TREE_STRATEGY', 'LOG_LEVEL'].includes(name))
      delete env[name];
  }
  Object.assign(env, {
    PORT: String(port),
    DYNAMODB_LOCAL_PORT: String(await freePort(8300)),
    DATA_DIR: dataDir,
    LOG_FORMAT: 'json',
  });
  const spawnedAt = Date.now();
  // detached: npm leads a process group of its own, killed whole if anything goes wrong.
  const child = spawn('npm', ['start'], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const server = { child, port, spawnedAt, output: () => output, exited };
  running.add(server);
  return server;
}

/** The start line ("Canopy ... ready at"), once written (log lines are flushed every 250 ms). */
async function readyLine(server: Running): Promise<{ time: string; startupMs?: Start['startupMs'] } | undefined> {
  const find = () =>
    server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{') && line.includes('ready at'))
      .map((line) => JSON.parse(line) as { time: string; startupMs?: Start['startupMs'] })[0];
  const deadline = Date.now() + 2000;
  while (!find() && Date.now() < deadline) await sleep(50);
  return find();
}

/** The workload from CLIENTS clients for two windows of `seconds`: operations per second in each. */
async function workload(server: Running, seconds: number): Promise<[number, number]> {
  const rates: number[] = [];
  for (let window = 0; window < 2; window++) {
    const deadline = Date.now() + seconds * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (Date.now() < deadline) {
          const response = await fetch(`http://127.0.0.1:${server.port}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: WORKLOAD }),
          });
          const answer = (await response.json()) as { errors?: unknown };
          if (answer.errors) throw new Error(`the workload failed: ${JSON.stringify(answer.errors)}`);
          done++;
        }
      }),
    );
    rates.push(done / seconds);
  }
  return rates as [number, number];
}

async function until(condition: () => Promise<boolean>, server: Running): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await condition())) {
    if (server.child.exitCode !== null) throw new Error(`npm start exited:\n${server.output().slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`npm start was not ready in time:\n${server.output().slice(-3000)}`);
    await sleep(20);
  }
}

async function status(server: Running, path: string): Promise<number> {
  try {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/** The first port from `from` that nothing listens on (127.0.0.1), within 100. */
async function freePort(from: number): Promise<number> {
  for (let port = from; port < from + 100; port++) {
    const free = await new Promise<boolean>((done) => {
      const probe = createServer();
      probe.once('error', () => done(false));
      probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => done(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port from ${from} to ${from + 99}`);
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const seconds = (ms: number | undefined) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(2)} s`);

function row(start: Start): string {
  const phases = PHASES.map((phase) => seconds(start.startupMs?.[phase])).join(' / ');
  const rates = start.rates ? `, ${start.rates.map((r) => r.toFixed(0)).join(' then ')} ops/s` : '';
  return (
    `${start.version}, round ${start.round}, ${start.kind}: ready ${seconds(start.readyMs)} ` +
    `(load ${start.load.toFixed(2)}; process ${seconds(start.processMs)}, then ${phases}), ` +
    `stop ${seconds(start.stopMs)}${rates}`
  );
}

function printSummary(): void {
  console.log(`\nmedians of ${ROUNDS} rounds (load average ${loadRange()}); phases in s since the process started:`);
  console.log(`\n| version | start | ready | process | ${PHASES.join(' | ')} | stop | ops/s, then |`);
  console.log(`| --- | --- | --- | --- | ${PHASES.map(() => '---').join(' | ')} | --- | --- |`);
  for (const version of VERSIONS)
    for (const kind of ['cold', 'warm'] as const) console.log(summaryRow(version.name, kind));
  if (VERSIONS.length === 2) printRatios();
}

/** The medians of one version's starts of one kind, as a row of the summary. */
function summaryRow(version: string, kind: Start['kind']): string {
  const of = starts.filter((s) => s.version === version && s.kind === kind);
  const m = (value: (start: Start) => number | undefined) => {
    const known = of.map(value).filter((v): v is number => v !== undefined && Number.isFinite(v));
    return known.length === 0 ? undefined : median(known);
  };
  const phases = PHASES.map((phase) => seconds(m((s) => s.startupMs?.[phase])));
  const rates = [0, 1].map((i) => m((s) => s.rates?.[i])?.toFixed(0) ?? '-');
  const cells = [version, kind, seconds(m((s) => s.readyMs)), seconds(m((s) => s.processMs)), ...phases];
  return `| ${[...cells, seconds(m((s) => s.stopMs)), kind === 'warm' ? rates.join(', ') : '-'].join(' | ')} |`;
}

/** Per round, the work tree's time over the baseline's: their medians. */
function printRatios(): void {
  for (const kind of ['cold', 'warm'] as const) {
    const ratios = Array.from({ length: ROUNDS }, (_, i) => {
      const [a, b] = VERSIONS.map((v) =>
        starts.find((s) => s.version === v.name && s.round === i + 1 && s.kind === kind),
      );
      return a && b ? a.readyMs / b.readyMs : undefined;
    }).filter((r): r is number => r !== undefined);
    console.log(
      `\n${kind}: work tree / baseline, ready: median ${median(ratios).toFixed(2)} ` +
        `(rounds from ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)})`,
    );
  }
}

function loadRange(): string {
  const loads = starts.map((s) => s.load);
  return `${Math.min(...loads).toFixed(2)} to ${Math.max(...loads).toFixed(2)}`;
}

await main();
