import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createDynamo } from '../src/dynamodb/client.js';
import { startDynamoLocal } from '../src/dynamodb/dynamoLocal.js';
import { ensureTable } from '../src/dynamodb/table.js';
import { verifyTable } from '../src/storage/maintenance/verifyTable.js';
import type { StrategyName } from '../src/storage/strategies/strategies.js';
import { loadTree } from '../test/support/loadTree.js';
import { specIds, type TreeSpec } from '../test/support/tree.js';
import { startDelayProxy } from './delayProxy.js';
import { createNaiveTable, loadNaiveTree } from './naive/naiveServer.js';
import type { Workload } from './workloads.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLOCK_TICK_MS = 10; // Linux's USER_HZ is 100

/** How `npm start` runs Canopy (package.json): its Node flags. The naive server runs with Node's defaults. */
export const CANOPY_NODE_FLAGS = ['--max-semi-space-size=128'];
const NAIVE_ARGV = ['--import', 'tsx', 'bench/naive/main.ts'];

export interface Server {
  name: string;
  url: string;
  child: ChildProcess;
}

export interface Bench {
  /** The naive server first, then Canopy under each strategy asked for. */
  servers: Server[];
  /** DynamoDB calls the proxy has passed so far. */
  proxyCalls: () => number;
  close(): Promise<void>;
}

/**
 * One embedded in-memory DynamoDB Local behind a proxy that holds every call `delayMs`; the naive
 * server and Canopy under each strategy, each in a process of its own, on the same trees (loaded
 * as items, then checked by `tree verify` for Canopy).
 */
export async function startBench(
  specs: TreeSpec[],
  strategies: readonly StrategyName[],
  delayMs: number,
  canopyFlags: readonly string[] = CANOPY_NODE_FLAGS,
): Promise<Bench> {
  const local = await startDynamoLocal({ port: 8400 + Math.floor(Math.random() * 300) });
  const proxy = await startDelayProxy(local.endpoint, delayMs);
  const { client, doc } = createDynamo({ endpoint: local.endpoint, region: 'local' });
  const servers: Server[] = [];
  const close = async () => {
    // A profiled process (bench:cpu, CPU_PROF) stops on its own, writing its profile.
    for (const server of servers) server.child.kill(process.env.CPU_PROF ? 'SIGTERM' : 'SIGKILL');
    if (process.env.CPU_PROF) await new Promise((resolve) => setTimeout(resolve, 3000));
    client.destroy();
    await proxy.close();
    await local.stop();
  };
  try {
    process.stdout.write(`loading ${specs.reduce((n, s) => n + specIds(s).length, 0)} nodes per server...`);
    await createNaiveTable(client, 'naive');
    await loadNaiveTree(doc, 'naive', specs);
    servers.push(await spawnServer('naive', NAIVE_ARGV, { NAIVE_TABLE: 'naive', DYNAMODB_ENDPOINT: proxy.endpoint }));
    for (const strategy of strategies) {
      const table = `canopy_${strategy}`;
      await ensureTable(client, table);
      await loadTree(doc, table, strategy, specs);
      const { problems } = await verifyTable(doc, table, strategy, 64);
      if (problems.length > 0) throw new Error(`${strategy}: the loaded tree has problems`);
      const env = {
        TREE_STRATEGY: strategy,
        DYNAMODB_TABLE: table,
        DYNAMODB_ENDPOINT: proxy.endpoint,
        SEED_DEMO: 'false',
        JOB_LEASE_SECONDS: '30',
        // As deployed: production mode (no rate limit here; the load is the benchmark's own).
        NODE_ENV: 'production',
        AUTH: 'none',
        CURSOR_SECRET: 'a-benchmark-secret-of-forty-characters-x',
        RATE_LIMIT_PER_SECOND: '0',
      };
      servers.push(await spawnServer(strategy, [...canopyFlags, '--import', 'tsx', 'src/main.ts'], env));
    }
    process.stdout.write(' done\n');
  } catch (error) {
    await close();
    throw error;
  }
  return { servers, proxyCalls: proxy.calls, close };
}

export interface SpawnOptions {
  /** The directory it runs in (default: this repository). */
  cwd?: string;
  /** Default: a random port in 5100..5899. */
  port?: number;
}

/** Starts a server process (`node ...argv`) and waits until it answers GraphQL. */
export async function spawnServer(
  name: string,
  argv: string[],
  env: Record<string, string>,
  { cwd = REPO_ROOT, port = 5100 + Math.floor(Math.random() * 800) }: SpawnOptions = {},
): Promise<Server> {
  const child = spawn(process.execPath, argv, {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300 && child.exitCode === null; i++) {
    const up = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    }).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { name, url: `${url}/graphql`, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not start${child.exitCode === null ? '' : ` (exit code ${child.exitCode})`}`);
}

export interface Answer {
  data?: unknown;
  errors?: unknown[];
  extensions?: { dynamodb?: { requests?: number; itemsWritten?: number; itemsRead?: number; readUnits?: number } };
}

/** The server's answer to the operation, its errors included. */
export async function send(url: string, query: string, variables?: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as Answer;
}

/** The server's answer to the operation; throws when it has errors. */
export async function post(url: string, query: string, variables?: Record<string, unknown>): Promise<Answer> {
  const answer = await send(url, query, variables);
  if (answer.errors) throw new Error(`${url}: ${JSON.stringify(answer.errors).slice(0, 300)}`);
  return answer;
}

/** What a server reports of one operation's DynamoDB calls (Canopy does; the naive server reports nothing). */
export interface Reported {
  requests: number;
  itemsRead: number;
  readUnits: number;
}

/** One operation of the workload: its queries in sequence; what they reported, summed. */
export async function runOnce(server: Server, workload: Workload): Promise<Reported> {
  const sum: Reported = { requests: 0, itemsRead: 0, readUnits: 0 };
  for (const query of workload.operations) {
    const cost = (await post(server.url, query)).extensions?.dynamodb;
    sum.requests += cost?.requests ?? 0;
    sum.itemsRead += cost?.itemsRead ?? 0;
    sum.readUnits += cost?.readUnits ?? 0;
  }
  return sum;
}

/** The most memory the process has held so far (its peak resident set, MB), from /proc. */
export function peakRssMb(child: ChildProcess): number {
  const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kb) / 1024);
}

/** CPU time (ms) the process has used so far, from /proc. */
export function cpuMs(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

/** Runs the workload from `concurrency` clients until `ms` have passed: operations done, seconds taken. */
export async function runFor(
  server: Server,
  workload: Workload,
  concurrency: number,
  ms: number,
): Promise<{ done: number; seconds: number }> {
  const deadline = performance.now() + ms;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await runOnce(server, workload);
        done++;
      }
    }),
  );
  return { done, seconds: (performance.now() - started) / 1000 };
}
