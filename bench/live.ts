/**
 * Live updates under load (`npm run bench:live`): subscribers of one tree, writes at a steady
 * rate, and what each change costs to deliver; then idle subscribers, their heap and the delivery
 * of one change to all of them.
 *
 *   npm run bench:live             # 100 and 1,000 subscribers, 1 and 2 processes; 1,000 and 10,000 idle
 *   npm run bench:live -- --subscribers 100 --seconds 5 --rate 20 --idle 1000
 *   npm run bench:live -- --auth jwt   # subscribers with signed tokens that reach only the tree
 *
 * The server is the build (compiled first to test-artifacts/live-server, as `npm run build`
 * does; `--tsx` runs the sources through tsx instead, whose keepNames adds a name to every
 * closure: more heap per subscriber). Each case starts real server processes on one DynamoDB
 * Local (its own, in memory), two of them woken through a `redis-server` of the bench's own when
 * that case runs (it is skipped, saying so, when redis-server is not on PATH). The subscribers,
 * one WebSocket each, split evenly between the processes, watch the whole tree; a writer renames
 * a node of it `--rate` times a second for `--seconds` through the first process. For each
 * change and subscriber, the latency runs from the mutation's answer to the change's arrival
 * (both clocks are the bench's). Printed per case: latency p50 and p99, events delivered per
 * second, the server processes' resident memory per subscriber (what they grew by, garbage
 * included) and JavaScript heap per subscriber (after a forced full GC before the subscribers
 * connect and once they are all idle: the servers run with --expose-gc and a hook of the
 * bench's, asked over the IPC channel), and DynamoDB requests per change: the write's own (its
 * `extensions.dynamodb`), and the readers' (the servers' `canopy_dynamodb_calls_total` Queries
 * during the run, over the changes). The idle cases (`--idle`, one process) measure the heap per
 * subscriber the same way, then rename a node `--deliveries` times, a second apart: the latency
 * of each change to every subscriber. Results also go to test-artifacts/bench-live.json.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { signDevToken } from '../src/auth/devToken.js';
import { loadConfig } from '../src/config.js';
import { startDynamoLocal } from '../src/dynamodb/dynamoLocal.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = join(REPO_ROOT, 'test-artifacts', 'bench-live.json');
const BUILD = join(REPO_ROOT, 'test-artifacts', 'live-server');

const { values: options } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '100,1000' },
    processes: { type: 'string', default: '1,2' },
    seconds: { type: 'string', default: '10' },
    rate: { type: 'string', default: '20' },
    idle: { type: 'string', default: '1000,10000' },
    deliveries: { type: 'string', default: '5' },
    tsx: { type: 'boolean', default: false },
    auth: { type: 'string', default: 'none' },
  },
});
if (!['none', 'jwt'].includes(options.auth)) throw new Error('--auth: none or jwt');
const list = (value: string) => (value === '' ? [] : value.split(',').map(Number));
const SUBSCRIBERS = list(options.subscribers);
const PROCESSES = list(options.processes);
const IDLE = list(options.idle);
const SECONDS = Number(options.seconds);
const RATE = Number(options.rate);
const DELIVERIES = Number(options.deliveries);

/**
 * With `--auth jwt`: the servers check signed tokens (AUTH=jwt); the writer's token gives every
 * tree, each subscriber's only READ on tree live (a permissions claim: its grants are checked again
 * every GRANTS_CACHE_MS, with the grants on subtrees).
 */
const JWT = options.auth === 'jwt' ? { AUTH: 'jwt', JWT_SECRET: randomUUID() + randomUUID() } : undefined;
const tokens = JWT && {
  writer: await signDevToken(authOf(JWT), 'bench-writer'),
  subscriber: await signDevToken(authOf(JWT), 'bench-subscriber', 8, undefined, { trees: { live: 'read' } }),
};

function authOf(env: Record<string, string>) {
  return loadConfig({ ...env, DYNAMODB_TABLE: 'unused' }).auth;
}

/**
 * The servers' hook (bench only, never in the server): on the IPC message 'gc', a full GC, then
 * the heap used. The IPC channel keeps no server alive.
 */
const GC_HOOK = `data:text/javascript,${encodeURIComponent(
  "process.on('message', (m) => { if (m !== 'gc') return; setTimeout(() => { for (let i = 0; i < 4; i++) " +
    'globalThis.gc(); process.send({ heapUsed: process.memoryUsage().heapUsed }); }, 50); }); ' +
    'process.channel?.unref();',
)}`;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Server {
  url: string;
  child: ChildProcess;
}

/** The server compiled as `npm run build` does, to BUILD (unless --tsx). */
function buildServer(): void {
  if (options.tsx) return;
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const built = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', BUILD], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('the server did not compile');
  copyFileSync(
    join(REPO_ROOT, 'src/dynamodb/BoundDynamoDBLocal.java'),
    join(BUILD, 'src/dynamodb/BoundDynamoDBLocal.java'),
  );
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const main = options.tsx ? ['--import', 'tsx', 'src/main.ts'] : [join(BUILD, 'src/main.js')];
  const child = spawn(process.execPath, ['--expose-gc', '--max-semi-space-size=128', '--import', GC_HOOK, ...main], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, ...JWT, PORT: String(port), LOG_LEVEL: 'warn', SEED_DEMO: 'false' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ;) {
    if (Date.now() > deadline) throw new Error('a server did not start');
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, child };
    await sleep(100);
  }
}

/** The server's heap after a forced full GC. */
async function heapAfterGc(server: Server): Promise<number> {
  const answer = once(server.child, 'message') as Promise<[{ heapUsed: number }]>;
  server.child.send('gc');
  return (await answer)[0].heapUsed;
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

async function gql(url: string, query: string, variables?: Record<string, unknown>) {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(tokens ? { authorization: `Bearer ${tokens.writer}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as {
    data?: Record<string, unknown>;
    errors?: unknown[];
    extensions?: { dynamodb?: { requests: number; itemsWritten: number } };
  };
}

const rename = (url: string, name: string) =>
  gql(url, 'mutation($n: String!) { updateNode(id: "live.n", name: $n) { id } }', { n: name });

/** A metric of the server's /metrics: the sum of its samples whose labels contain `labels`. */
async function metric(url: string, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || line.startsWith('#')) continue;
    const [key, value] = line.split(' ');
    if ((key === name || key!.startsWith(`${name}{`)) && key!.includes(labels)) sum += Number(value);
  }
  return sum;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (value: number) => Math.round(value * 10) / 10;
const kb = (bytes: number, per: number) => Math.round(bytes / per / 102.4) / 10;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Servers on one fresh table, with the watched tree (live, its node live.n). */
async function startServers(dynamodbEndpoint: string, processes: number, subscribers: number, redisUrl?: string) {
  const env: Record<string, string> = {
    DYNAMODB_ENDPOINT: dynamodbEndpoint,
    DYNAMODB_TABLE: `live_${Date.now()}`,
    LIVE_MAX_SUBSCRIPTIONS_PER_CALLER: String(subscribers + 10),
    LIVE_MAX_CONNECTIONS: String(Math.max(10_000, subscribers + 10)),
    ...(redisUrl ? { PUBSUB_URL: redisUrl } : {}),
  };
  const servers: Server[] = [];
  for (let i = 0; i < processes; i++) servers.push(await startServer(env));
  const [writer] = servers as [Server];
  await gql(writer.url, 'mutation { createNode(input: { id: "live", name: "live" }) { id } }');
  await gql(writer.url, 'mutation { createNode(input: { id: "live.n", parentId: "live", name: "n" }) { id } }');
  // A subscriber's code run once, so that the heap measured after is the subscribers'.
  await openSubscribers(servers, 1).then(async (warm) => {
    await warm.ready(() => rename(writer.url, 'poke'));
    await warm.dispose();
  });
  return { servers, writer };
}

/**
 * `count` subscribers of tree live, one WebSocket each, split between the servers: the arrival
 * times of each renamed `w…`, and `ready`, which renames until every one has seen a change.
 */
async function openSubscribers(servers: Server[], count: number) {
  const clients: Client[] = [];
  const arrivals = new Map<string, number[]>();
  const subscribed: Array<Promise<void>> = [];
  const connecting: Array<Promise<void>> = [];
  let delivered = 0;
  for (let i = 0; i < count; i++) {
    const server = servers[i % servers.length]!;
    const client = createClient({
      url: `${server.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      ...(tokens ? { connectionParams: { authorization: `Bearer ${tokens.subscriber}` } } : {}),
    });
    clients.push(client);
    let first: () => void;
    subscribed.push(new Promise<void>((resolve) => (first = resolve)));
    client.subscribe<{ treeChanges: { node: { name: string } | null } }>(
      { query: 'subscription { treeChanges(nodeId: "live") { node { name } } }' },
      {
        next: (result) => {
          const name = result.data?.treeChanges.node?.name;
          if (!name) return;
          if (!name.startsWith('w')) return first();
          delivered++;
          arrivals.set(name, [...(arrivals.get(name) ?? []), performance.now()]);
        },
        error: (error) => console.error('subscription error', error),
        complete: () => {},
      },
    );
    // A few hundred connections at a time: a burst of thousands overflows the listen backlog.
    connecting.push(
      new Promise<void>((resolve) => {
        client.on('connected', () => resolve());
        client.on('closed', () => resolve());
      }),
    );
    if (connecting.length >= 200) await Promise.all(connecting.splice(0));
  }
  return {
    arrivals,
    delivered: () => delivered,
    async ready(poke: () => Promise<unknown>) {
      for (let round = 0; ; round++) {
        await poke();
        if (await Promise.race([Promise.all(subscribed).then(() => true), sleep(500).then(() => false)])) return;
      }
    },
    async dispose() {
      for (const client of clients) await client.dispose();
    },
  };
}

/** Latencies from each change's answer to its arrivals, sorted. */
function latencies(arrivals: Map<string, number[]>, answered: Map<string, number>): number[] {
  const all: number[] = [];
  for (const [name, times] of arrivals) {
    const at = answered.get(name);
    if (at !== undefined) for (const t of times) all.push(Math.max(0, t - at));
  }
  return all.sort((a, b) => a - b);
}

interface CaseResult {
  subscribers: number;
  processes: number;
  changes: number;
  delivered: number;
  expected: number;
  p50Ms: number;
  p99Ms: number;
  eventsPerSecond: number;
  rssPerSubscriberKb: number;
  heapPerSubscriberKb: number;
  writeRequestsPerChange: number;
  writeItemsPerChange: number;
  readerQueriesPerChange: number;
}

/** Writes at RATE for SECONDS: each rename's answer time, and what the writes cost. */
async function writeAtRate(url: string) {
  const answered = new Map<string, number>();
  let requests = 0;
  let items = 0;
  const total = SECONDS * RATE;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE;
    if (performance.now() < due) await sleep(due - performance.now());
    const result = await rename(url, `w${i}`);
    answered.set(`w${i}`, performance.now());
    requests += result.extensions?.dynamodb?.requests ?? 0;
    items += result.extensions?.dynamodb?.itemsWritten ?? 0;
  }
  return { answered, requests, items, total, started };
}

async function runCase(dynamodbEndpoint: string, subscribers: number, processes: number, redisUrl?: string) {
  const { servers, writer } = await startServers(dynamodbEndpoint, processes, subscribers, redisUrl);
  const rssBefore = await Promise.all(servers.map((s) => metric(s.url, 'process_resident_memory_bytes')));
  const heapBefore = await Promise.all(servers.map(heapAfterGc));
  const subs = await openSubscribers(servers, subscribers);
  await subs.ready(() => rename(writer.url, 'ready'));
  await sleep(500);
  const rssAfter = await Promise.all(servers.map((s) => metric(s.url, 'process_resident_memory_bytes')));
  const heapAfter = await Promise.all(servers.map(heapAfterGc));
  const queries = () => Promise.all(servers.map((s) => metric(s.url, 'canopy_dynamodb_calls_total', 'command="Query')));
  const queriesBefore = await queries();
  const writes = await writeAtRate(writer.url);
  const expected = writes.total * subscribers;
  for (const deadline = performance.now() + 30_000; subs.delivered() < expected && performance.now() < deadline;)
    await sleep(50);
  const elapsed = (performance.now() - writes.started) / 1000;
  const queriesAfter = await queries();
  const sorted = latencies(subs.arrivals, writes.answered);
  await subs.dispose();
  for (const server of servers) await stop(server);
  return {
    subscribers,
    processes,
    changes: writes.total,
    delivered: subs.delivered(),
    expected,
    p50Ms: ms(percentile(sorted, 50)),
    p99Ms: ms(percentile(sorted, 99)),
    eventsPerSecond: Math.round(subs.delivered() / elapsed),
    rssPerSubscriberKb: kb(sum(rssAfter) - sum(rssBefore), subscribers),
    heapPerSubscriberKb: kb(sum(heapAfter) - sum(heapBefore), subscribers),
    writeRequestsPerChange: Math.round((writes.requests / writes.total) * 100) / 100,
    writeItemsPerChange: Math.round((writes.items / writes.total) * 100) / 100,
    readerQueriesPerChange: Math.round(((sum(queriesAfter) - sum(queriesBefore)) / writes.total) * 100) / 100,
  } satisfies CaseResult;
}

interface IdleResult {
  subscribers: number;
  heapPerSubscriberKb: number;
  connectSeconds: number;
  deliveries: number;
  delivered: number;
  p50Ms: number;
  p99Ms: number;
  /** The slowest subscriber's latency, of each change's: the change's delivery to all. */
  allMs: number;
}

/** Idle subscribers on one process: their heap (forced GC), then DELIVERIES changes a second apart. */
async function runIdle(dynamodbEndpoint: string, subscribers: number): Promise<IdleResult> {
  const { servers, writer } = await startServers(dynamodbEndpoint, 1, subscribers);
  const heapBefore = await heapAfterGc(writer);
  const started = performance.now();
  const subs = await openSubscribers(servers, subscribers);
  await subs.ready(() => rename(writer.url, 'ready'));
  const connectSeconds = Math.round((performance.now() - started) / 100) / 10;
  await sleep(1000);
  const heapAfter = await heapAfterGc(writer);
  const answered = new Map<string, number>();
  for (let i = 0; i < DELIVERIES; i++) {
    await rename(writer.url, `w${i}`);
    answered.set(`w${i}`, performance.now());
    const expected = (i + 1) * subscribers;
    for (const deadline = performance.now() + 30_000; subs.delivered() < expected && performance.now() < deadline;)
      await sleep(10);
    await sleep(1000);
  }
  const sorted = latencies(subs.arrivals, answered);
  await subs.dispose();
  await stop(writer);
  return {
    subscribers,
    heapPerSubscriberKb: kb(heapAfter - heapBefore, subscribers),
    connectSeconds,
    deliveries: DELIVERIES,
    delivered: subs.delivered(),
    p50Ms: ms(percentile(sorted, 50)),
    p99Ms: ms(percentile(sorted, 99)),
    allMs: ms(sorted.at(-1) ?? Number.NaN),
  };
}

async function startRedis(): Promise<{ url: string; process: ChildProcess } | undefined> {
  const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!hasRedis || !PROCESSES.some((p) => p > 1)) return undefined;
  const port = await freePort();
  const redis = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  await sleep(300);
  return { url: `redis://127.0.0.1:${port}`, process: redis };
}

async function runCases(endpoint: string, redisUrl: string | undefined): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const processes of PROCESSES) {
    if (processes > 1 && !redisUrl) {
      console.log(`${processes} processes: skipped (redis-server is not on PATH)`);
      continue;
    }
    for (const subscribers of SUBSCRIBERS) {
      const result = await runCase(endpoint, subscribers, processes, processes > 1 ? redisUrl : undefined);
      results.push(result);
      console.log(
        `${String(subscribers).padStart(5)} subscribers on ${processes} process(es): ` +
          `${result.delivered}/${result.expected} delivered, ` +
          `latency p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ` +
          `${result.eventsPerSecond} events/s, per subscriber ${result.rssPerSubscriberKb} KB resident ` +
          `(${result.heapPerSubscriberKb} KB of heap after GC), per change: ` +
          `${result.writeRequestsPerChange} requests and ${result.writeItemsPerChange} items written by the write, ` +
          `${result.readerQueriesPerChange} reader Queries`,
      );
    }
  }
  return results;
}

async function main() {
  buildServer();
  const local = await startDynamoLocal({ port: await freePort() });
  const redis = await startRedis();
  const results: CaseResult[] = [];
  const idle: IdleResult[] = [];
  try {
    results.push(...(await runCases(local.endpoint, redis?.url)));
    for (const subscribers of IDLE) {
      const result = await runIdle(local.endpoint, subscribers);
      idle.push(result);
      console.log(
        `${String(subscribers).padStart(5)} idle subscribers on 1 process: ${result.heapPerSubscriberKb} KB of heap ` +
          `each after GC (connected in ${result.connectSeconds} s); ${result.delivered} of ` +
          `${result.deliveries * subscribers} delivered, one change to all: p50 ${result.p50Ms} ms, ` +
          `p99 ${result.p99Ms} ms, the last ${result.allMs} ms`,
      );
    }
  } finally {
    redis?.process.kill('SIGTERM');
    await local.stop();
  }
  mkdirSync(join(REPO_ROOT, 'test-artifacts'), { recursive: true });
  const server = options.tsx ? 'tsx' : 'build';
  writeFileSync(RESULTS, `${JSON.stringify({ server, seconds: SECONDS, rate: RATE, results, idle }, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
