/**
 * The benchmark against a naive server (`npm run bench`, `npm run bench -- --quick` for a short
 * run, `--delay MS` for another delay per DynamoDB call):
 *
 * - one embedded in-memory DynamoDB Local, behind a proxy that holds every call DELAY ms (5 by
 *   default: the round trip to DynamoDB that a local emulator hides);
 * - the naive server (bench/naive/naiveServer.ts: a GSI on parentId, a call per field, no
 *   DataLoader) and Canopy under each strategy, each in a process of its own, on the same trees
 *   (loaded as items, then checked by `tree verify` for Canopy);
 * - per workload and server: DynamoDB requests per operation (as the server reports them, and as
 *   the proxy counted them), p50/p99 latency at concurrency 1, throughput at concurrency 16, the
 *   server process's CPU per operation, and the throughput ratio to the naive server;
 * - then moves of 1, 100, 1,000 (and 10,000 in a full run) nodes: time to the answer, and until
 *   the job is done.
 *
 * One run measures every server, so that ratios hold on a noisy machine; absolute figures do not
 * carry over to AWS, calls and CPU per operation do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createDynamo } from '../src/dynamodb/client.js';
import { startDynamoLocal } from '../src/dynamodb/dynamoLocal.js';
import { ensureTable } from '../src/dynamodb/table.js';
import { verifyTable } from '../src/storage/maintenance/verifyTable.js';
import { STRATEGY_NAMES, type StrategyName } from '../src/storage/strategies/strategies.js';
import { loadTree } from '../test/support/loadTree.js';
import { fullTree, specIds, type TreeSpec } from '../test/support/tree.js';
import { startDelayProxy } from './delayProxy.js';
import { createNaiveTable, loadNaiveTree } from './naive/naiveServer.js';

const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const DELAY_MS = args.includes('--delay') ? Number(args[args.indexOf('--delay') + 1]) : 5;
const SEQUENTIAL = QUICK ? 20 : 100;
const CONCURRENT_MS = QUICK ? 2000 : 8000;
const CONCURRENCY = 16;
const MOVE_SIZES = QUICK ? [1, 100, 1000] : [1, 100, 1000, 10_000];
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLOCK_TICK_MS = 10; // Linux's USER_HZ is 100

/** The trees every server holds. */
function trees(): TreeSpec[] {
  const chain: TreeSpec = { id: 'chain-20' };
  let top = chain;
  for (let i = 19; i >= 0; i--) top = { id: `chain-${i}`, children: [top] };
  const subtree = (id: string, size: number): TreeSpec => {
    const nodes: TreeSpec[] = Array.from({ length: size }, (_, k) => ({ id: k === 0 ? id : `${id}.n${k}`, children: [] }));
    for (let k = 1; k < size; k++) nodes[Math.floor((k - 1) / 10)]!.children!.push(nodes[k]!);
    return nodes[0]!;
  };
  return [
    fullTree('nest', [10, 10, 10]),
    fullTree('fan', [5, 5, 5]),
    top,
    fullTree('wide', [5, 6]),
    { id: 'src', children: MOVE_SIZES.map((size) => subtree(`m${size}`, size)) },
    { id: 'dst', children: [{ id: 'dst.1' }] },
  ];
}

interface Workload {
  name: string;
  /** Operations run one after the other: one "operation" of the workload. */
  operations: string[];
}

const WIDE_LEAVES = specIds(fullTree('wide', [5, 6])).filter((id) => id.split('.').length === 3);
const WORKLOADS: Workload[] = [
  { name: 'node lookup', operations: ['{ node(id: "fan.1") { id name } }'] },
  {
    name: 'nested children ×3 (fan-out 10, first 10)',
    operations: ['{ node(id: "nest") { children(first: 10) { nodes { id children(first: 10) { nodes { id children(first: 10) { nodes { id } } } } } } } }'],
  },
  { name: 'breadcrumbs at depth 20', operations: ['{ node(id: "chain-20") { ancestors { id name } } }'] },
  { name: 'descendants(maxDepth: 3), fan-out 5', operations: ['{ node(id: "fan") { descendants(maxDepth: 3, first: 1000) { nodes { id } } } }'] },
  {
    name: '30 aliased lookups with parent',
    operations: [`{ ${WIDE_LEAVES.map((id, i) => `n${i}: node(id: "${id}") { id parent { id } }`).join(' ')} }`],
  },
  {
    name: 'SPA session (roots, children of 3, breadcrumb)',
    operations: [
      '{ roots(first: 10) { nodes { id name } } }',
      '{ a: node(id: "nest") { children { nodes { id name } } } b: node(id: "fan") { children { nodes { id name } } } c: node(id: "wide") { children { nodes { id name } } } }',
      '{ node(id: "nest.3.4.5") { ancestors { id name } } }',
    ],
  },
];

interface Server {
  name: string;
  url: string;
  child: ChildProcess;
}

async function main() {
  const local = await startDynamoLocal({ port: 8400 + Math.floor(Math.random() * 300) });
  const proxy = await startDelayProxy(local.endpoint, DELAY_MS);
  const { client, doc } = createDynamo({ endpoint: local.endpoint, region: 'local' });
  const servers: Server[] = [];
  try {
    const specs = trees();
    process.stdout.write(`loading ${specs.reduce((n, s) => n + specIds(s).length, 0)} nodes per server...`);
    await createNaiveTable(client, 'naive');
    await loadNaiveTree(doc, 'naive', specs);
    servers.push(await spawnServer('naive', ['--import', 'tsx', 'bench/naive/main.ts'], { NAIVE_TABLE: 'naive', DYNAMODB_ENDPOINT: proxy.endpoint }));
    for (const strategy of STRATEGY_NAMES) {
      const table = `canopy_${strategy}`;
      await ensureTable(client, table);
      await loadTree(doc, table, strategy, specs);
      const { problems } = await verifyTable(doc, table, strategy, 64);
      if (problems.length > 0) throw new Error(`${strategy}: the loaded tree has problems`);
      servers.push(await spawnServer(strategy, ['--import', 'tsx', 'src/main.ts'], canopyEnv(strategy, table, proxy.endpoint)));
    }
    process.stdout.write(' done\n');

    const rows: string[] = [];
    for (const workload of WORKLOADS) {
      const measured = [];
      for (const server of servers) {
        process.stdout.write(`${workload.name}: ${server.name}...`);
        measured.push({ server, ...(await measure(server, workload, proxy.calls)) });
        process.stdout.write(' done\n');
      }
      const naive = measured[0]!;
      for (const m of measured) {
        rows.push(
          `| ${workload.name} | ${m.server.name} | ${m.requests} (${m.proxied}) | ${m.p50} ms | ${m.p99} ms | ${m.single} | ${m.throughput} | ${m.cpuMs} ms | ${(m.throughput / naive.throughput).toFixed(2)}× |`,
        );
      }
    }
    const moves: string[] = [];
    for (const server of servers) {
      for (const size of MOVE_SIZES) moves.push(await move(server, size));
    }
    console.log(`\nDynamoDB Local, ${DELAY_MS} ms per DynamoDB call, ${QUICK ? 'quick' : 'full'} run`);
    console.log('\n| workload | server | requests/op (proxied) | p50 | p99 | ops/s at 1 | ops/s at 16 | server CPU/op | vs naive at 16 |');
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const row of rows) console.log(row);
    console.log('\n| move | server | requests (answer) | answer | job done |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const row of moves) console.log(row);
  } finally {
    for (const server of servers) server.child.kill('SIGKILL');
    client.destroy();
    await proxy.close();
    await local.stop();
  }
}

function canopyEnv(strategy: StrategyName, table: string, endpoint: string): Record<string, string> {
  return { TREE_STRATEGY: strategy, DYNAMODB_TABLE: table, DYNAMODB_ENDPOINT: endpoint, SEED_DEMO: 'false', JOB_LEASE_SECONDS: '30' };
}

async function spawnServer(name: string, argv: string[], env: Record<string, string>): Promise<Server> {
  const port = 5100 + Math.floor(Math.random() * 800);
  const child = spawn(process.execPath, argv, {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { PATH: process.env.PATH ?? '', PORT: String(port), AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', ...env },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    const up = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    }).then((r) => r.ok, () => false);
    if (up) return { name, url: `${url}/graphql`, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not start`);
}

interface Answer {
  data?: unknown;
  errors?: unknown[];
  extensions?: { dynamodb?: { requests?: number } };
}

async function post(url: string, query: string): Promise<Answer> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  const answer = (await response.json()) as Answer;
  if (answer.errors) throw new Error(`${url}: ${JSON.stringify(answer.errors).slice(0, 300)}`);
  return answer;
}

/** One operation of the workload: its queries in sequence; the DynamoDB requests they reported. */
async function runOnce(server: Server, workload: Workload): Promise<number> {
  let requests = 0;
  for (const query of workload.operations) requests += (await post(server.url, query)).extensions?.dynamodb?.requests ?? 0;
  return requests;
}

/** CPU time (ms) the process has used so far, from /proc. */
function cpuMs(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

async function measure(server: Server, workload: Workload, proxyCalls: () => number) {
  for (let i = 0; i < 3; i++) await runOnce(server, workload);
  const latencies: number[] = [];
  let requests = 0;
  const callsBefore = proxyCalls();
  const sequentialStart = performance.now();
  for (let i = 0; i < SEQUENTIAL; i++) {
    const started = performance.now();
    requests = await runOnce(server, workload);
    latencies.push(performance.now() - started);
  }
  const single = Math.round(SEQUENTIAL / ((performance.now() - sequentialStart) / 1000));
  const proxied = Math.round((proxyCalls() - callsBefore) / SEQUENTIAL);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);

  const cpuBefore = cpuMs(server.child);
  const deadline = performance.now() + CONCURRENT_MS;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        await runOnce(server, workload);
        done++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuPerOp = (cpuMs(server.child) - cpuBefore) / done;
  return { requests, proxied, p50: at(0.5), p99: at(0.99), single, throughput: Math.round(done / seconds), cpuMs: cpuPerOp.toFixed(1) };
}

/** Moves m<size> (each server has its own table) under dst.1; Canopy: until its job is done too. */
async function move(server: Server, size: number): Promise<string> {
  const started = performance.now();
  const answer = await post(server.url, `mutation { reparent(id: "m${size}", newParentId: "dst.1") { id } }`);
  const answerMs = Math.round(performance.now() - started);
  let jobMs = '-';
  if (server.name !== 'naive') {
    for (;;) {
      const jobs = (await post(server.url, '{ jobs(first: 100) { nodes { status } } }')).data as { jobs: { nodes: Array<{ status: string }> } };
      if (jobs.jobs.nodes.every((job) => job.status !== 'RUNNING')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    jobMs = `${Math.round(performance.now() - started)} ms`;
  }
  return `| ${size === 1 ? '1 node' : `${size} nodes`} | ${server.name} | ${answer.extensions?.dynamodb?.requests ?? '?'} | ${answerMs} ms | ${jobMs} |`;
}

await main();
