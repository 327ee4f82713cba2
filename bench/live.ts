/**
 * Live updates under load (`npm run bench:live`): subscribers of one tree, writes at a steady
 * rate, and what each change costs to deliver.
 *
 *   npm run bench:live                                   # 100 and 1,000 subscribers, 1 and 2 processes
 *   npm run bench:live -- --subscribers 100 --seconds 5 --rate 20
 *
 * Each case starts real server processes (`node --import tsx src/main.ts`) on one DynamoDB Local
 * (its own, in memory), two of them woken through a `redis-server` of the bench's own when that
 * case runs (it is skipped, saying so, when redis-server is not on PATH). The subscribers, one
 * WebSocket each, split evenly between the processes, watch the whole tree; a writer renames a
 * node of it `--rate` times a second for `--seconds` through the first process. For each change
 * and subscriber, the latency runs from the mutation's answer to the change's arrival (both
 * clocks are the bench's). Printed per case: latency p50 and p99, events delivered per second,
 * the server processes' resident memory and JavaScript heap per subscriber (what they grew by
 * from before the subscribers connected, garbage included), and DynamoDB requests per change: the write's own (its
 * `extensions.dynamodb`), and the readers' (the servers' `canopy_dynamodb_calls_total` Queries
 * during the run, over the changes). Results also go to test-artifacts/bench-live.json.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startDynamoLocal } from '../src/dynamodb/dynamoLocal.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = join(REPO_ROOT, 'test-artifacts', 'bench-live.json');

const { values: options } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '100,1000' },
    processes: { type: 'string', default: '1,2' },
    seconds: { type: 'string', default: '10' },
    rate: { type: 'string', default: '20' },
  },
});
const SUBSCRIBERS = options.subscribers.split(',').map(Number);
const PROCESSES = options.processes.split(',').map(Number);
const SECONDS = Number(options.seconds);
const RATE = Number(options.rate);

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

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--max-semi-space-size=128', '--import', 'tsx', 'src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn', SEED_DEMO: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
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

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

async function gql(url: string, query: string, variables?: Record<string, unknown>) {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as {
    data?: Record<string, unknown>;
    errors?: unknown[];
    extensions?: { dynamodb?: { requests: number; itemsWritten: number } };
  };
}

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

async function runCase(dynamodbEndpoint: string, subscribers: number, processes: number, redisUrl?: string) {
  const table = `live_${Date.now()}`;
  const env: Record<string, string> = {
    DYNAMODB_ENDPOINT: dynamodbEndpoint,
    DYNAMODB_TABLE: table,
    LIVE_MAX_SUBSCRIPTIONS_PER_CALLER: String(subscribers + 10),
    ...(redisUrl ? { PUBSUB_URL: redisUrl } : {}),
  };
  const servers: Server[] = [];
  for (let i = 0; i < processes; i++) servers.push(await startServer(env));
  const [writer] = servers as [Server];
  await gql(writer.url, 'mutation { createNode(input: { id: "live", name: "live" }) { id } }');
  await gql(writer.url, 'mutation { createNode(input: { id: "live.n", parentId: "live", name: "n" }) { id } }');
  const rssBefore = await Promise.all(servers.map((s) => metric(s.url, 'process_resident_memory_bytes')));
  const heapBefore = await Promise.all(servers.map((s) => metric(s.url, 'nodejs_heap_size_used_bytes')));

  const clients: Client[] = [];
  const arrivals = new Map<string, number[]>();
  let delivered = 0;
  const subscribed: Array<Promise<void>> = [];
  for (let i = 0; i < subscribers; i++) {
    const server = servers[i % servers.length]!;
    const client = createClient({ url: `${server.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket });
    clients.push(client);
    let first: () => void;
    subscribed.push(new Promise<void>((resolve) => (first = resolve)));
    client.subscribe<{ treeChanges: { node: { name: string } | null } }>(
      { query: 'subscription { treeChanges(nodeId: "live") { node { name } } }' },
      {
        next: (result) => {
          const name = result.data?.treeChanges.node?.name;
          if (!name) return;
          if (name.startsWith('w')) {
            delivered++;
            const list = arrivals.get(name) ?? [];
            list.push(performance.now());
            arrivals.set(name, list);
          } else first();
        },
        error: (error) => console.error('subscription error', error),
        complete: () => {},
      },
    );
  }
  // Every subscriber runs once it has seen a first change.
  for (let round = 0; ; round++) {
    await gql(writer.url, 'mutation($n: String!) { updateNode(id: "live.n", name: $n) { id } }', {
      n: `ready${round}`,
    });
    const done = await Promise.race([Promise.all(subscribed).then(() => true), sleep(500).then(() => false)]);
    if (done) break;
  }
  await sleep(500);
  const rssAfter = await Promise.all(servers.map((s) => metric(s.url, 'process_resident_memory_bytes')));
  const heapAfter = await Promise.all(servers.map((s) => metric(s.url, 'nodejs_heap_size_used_bytes')));
  const queriesBefore = await Promise.all(
    servers.map((s) => metric(s.url, 'canopy_dynamodb_calls_total', 'command="Query')),
  );

  const answered = new Map<string, number>();
  let writeRequests = 0;
  let writeItems = 0;
  const total = SECONDS * RATE;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE;
    if (performance.now() < due) await sleep(due - performance.now());
    const name = `w${i}`;
    const result = await gql(writer.url, 'mutation($n: String!) { updateNode(id: "live.n", name: $n) { id } }', {
      n: name,
    });
    answered.set(name, performance.now());
    writeRequests += result.extensions?.dynamodb?.requests ?? 0;
    writeItems += result.extensions?.dynamodb?.itemsWritten ?? 0;
  }
  const expected = total * subscribers;
  for (const deadline = performance.now() + 30_000; delivered < expected && performance.now() < deadline;)
    await sleep(50);
  const elapsed = (performance.now() - started) / 1000;
  const queriesAfter = await Promise.all(
    servers.map((s) => metric(s.url, 'canopy_dynamodb_calls_total', 'command="Query')),
  );
  const latencies: number[] = [];
  for (const [name, times] of arrivals) {
    const at = answered.get(name);
    if (at !== undefined) for (const t of times) latencies.push(Math.max(0, t - at));
  }
  latencies.sort((a, b) => a - b);
  for (const client of clients) await client.dispose();
  for (const server of servers) await stop(server);
  const grown = rssAfter.reduce((sum, rss, i) => sum + (rss - rssBefore[i]!), 0);
  const heapGrown = heapAfter.reduce((sum, heap, i) => sum + (heap - heapBefore[i]!), 0);
  const readerQueries = queriesAfter.reduce((sum, q, i) => sum + (q - queriesBefore[i]!), 0);
  return {
    subscribers,
    processes,
    changes: total,
    delivered,
    expected,
    p50Ms: Math.round(percentile(latencies, 50) * 10) / 10,
    p99Ms: Math.round(percentile(latencies, 99) * 10) / 10,
    eventsPerSecond: Math.round(delivered / elapsed),
    rssPerSubscriberKb: Math.round(grown / subscribers / 102.4) / 10,
    heapPerSubscriberKb: Math.round(heapGrown / subscribers / 102.4) / 10,
    writeRequestsPerChange: Math.round((writeRequests / total) * 100) / 100,
    writeItemsPerChange: Math.round((writeItems / total) * 100) / 100,
    readerQueriesPerChange: Math.round((readerQueries / total) * 100) / 100,
  } satisfies CaseResult;
}

async function main() {
  const local = await startDynamoLocal({ port: await freePort() });
  const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
  let redis: ChildProcess | undefined;
  let redisUrl: string | undefined;
  if (hasRedis && PROCESSES.some((p) => p > 1)) {
    const port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    redisUrl = `redis://127.0.0.1:${port}`;
    await sleep(300);
  }
  const results: CaseResult[] = [];
  try {
    for (const processes of PROCESSES) {
      if (processes > 1 && !redisUrl) {
        console.log(`${processes} processes: skipped (redis-server is not on PATH)`);
        continue;
      }
      for (const subscribers of SUBSCRIBERS) {
        const result = await runCase(local.endpoint, subscribers, processes, processes > 1 ? redisUrl : undefined);
        results.push(result);
        console.log(
          `${String(subscribers).padStart(5)} subscribers on ${processes} process(es): ` +
            `${result.delivered}/${result.expected} delivered, ` +
            `latency p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ` +
            `${result.eventsPerSecond} events/s, per subscriber ${result.rssPerSubscriberKb} KB resident ` +
            `(${result.heapPerSubscriberKb} KB of heap), per change: ` +
            `${result.writeRequestsPerChange} requests and ${result.writeItemsPerChange} items written by the write, ` +
            `${result.readerQueriesPerChange} reader Queries`,
        );
      }
    }
  } finally {
    redis?.kill('SIGTERM');
    await local.stop();
  }
  mkdirSync(join(REPO_ROOT, 'test-artifacts'), { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify({ seconds: SECONDS, rate: RATE, results }, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
