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
 *   the proxy counted them), the items and read units it read (AWS bills units), p50/p99 latency
 *   at concurrency 1, throughput at concurrency 16, the
 *   server process's CPU per operation, and the throughput ratio to the naive server;
 * - then moves of 1, 100, 1,000 (and 10,000 in a full run) nodes: time to the answer, and until
 *   the job is done.
 *
 * One run measures every server, so that ratios hold on a noisy machine; absolute figures do not
 * carry over to AWS, calls and CPU per operation do.
 */
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { STRATEGY_NAMES } from '../src/storage/strategies/strategies.js';
import { cpuMs, post, runFor, runOnce, startBench, type Reported, type Server } from './servers.js';
import { trees, WORKLOADS, type Workload } from './workloads.js';

const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const DELAY_MS = args.includes('--delay') ? Number(args[args.indexOf('--delay') + 1]) : 5;
const SEQUENTIAL = QUICK ? 20 : 100;
const CONCURRENT_MS = QUICK ? 2000 : 8000;
const CONCURRENCY = 16;
const MOVE_SIZES = QUICK ? [1, 100, 1000] : [1, 100, 1000, 10_000];

async function main() {
  const bench = await startBench(trees(MOVE_SIZES), STRATEGY_NAMES, DELAY_MS);
  const { servers } = bench;
  try {
    const rows: string[] = [];
    for (const workload of WORKLOADS) {
      const measured = [];
      for (const server of servers) {
        process.stdout.write(`${workload.name}: ${server.name}...`);
        measured.push({ server, ...(await measure(server, workload, bench.proxyCalls)) });
        process.stdout.write(' done\n');
      }
      const naive = measured[0]!;
      for (const m of measured) {
        rows.push(
          `| ${workload.name} | ${m.server.name} | ${m.requests} (${m.proxied}) | ${m.read} ` +
            `| ${m.p50} ms | ${m.p99} ms ` +
            `| ${m.single} | ${m.throughput} | ${m.cpuMs} ms | ${(m.throughput / naive.throughput).toFixed(2)}× |`,
        );
      }
    }
    const moves: string[] = [];
    for (const server of servers) {
      for (const size of MOVE_SIZES) moves.push(await move(server, size));
    }
    console.log(
      `\nDynamoDB Local, ${DELAY_MS} ms per DynamoDB call, ${QUICK ? 'quick' : 'full'} run, ` +
        `at ${gitCommit()}, on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}`,
    );
    console.log(
      '\n| workload | server | requests/op (proxied) | read/op | p50 | p99 ' +
        '| ops/s at 1 | ops/s at 16 | server CPU/op | vs naive at 16 |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const row of rows) console.log(row);
    console.log('\n| move | server | requests (answer) | answer | job done |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const row of moves) console.log(row);
  } finally {
    await bench.close();
  }
}

async function measure(server: Server, workload: Workload, proxyCalls: () => number) {
  for (let i = 0; i < 3; i++) await runOnce(server, workload);
  const latencies: number[] = [];
  let reported: Reported = { requests: 0, itemsRead: 0, readUnits: 0 };
  const callsBefore = proxyCalls();
  const sequentialStart = performance.now();
  for (let i = 0; i < SEQUENTIAL; i++) {
    const started = performance.now();
    reported = await runOnce(server, workload);
    latencies.push(performance.now() - started);
  }
  const single = Math.round(SEQUENTIAL / ((performance.now() - sequentialStart) / 1000));
  const proxied = Math.round((proxyCalls() - callsBefore) / SEQUENTIAL);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);

  const cpuBefore = cpuMs(server.child);
  const { done, seconds } = await runFor(server, workload, CONCURRENCY, CONCURRENT_MS);
  const cpuPerOp = (cpuMs(server.child) - cpuBefore) / done;
  return {
    requests: reported.requests,
    // The naive server reports nothing of its calls but their number, which the proxy counts.
    read: server.name === 'naive' ? 'not reported' : `${reported.itemsRead} items, ${reported.readUnits} units`,
    proxied,
    p50: at(0.5),
    p99: at(0.99),
    single,
    throughput: Math.round(done / seconds),
    cpuMs: cpuPerOp.toFixed(1),
  };
}

/** Moves m<size> (each server has its own table) under dst.1; Canopy: until its job is done too. */
async function move(server: Server, size: number): Promise<string> {
  const started = performance.now();
  const answer = await post(server.url, `mutation { reparent(id: "m${size}", newParentId: "dst.1") { id } }`);
  const answerMs = Math.round(performance.now() - started);
  let jobMs = '-';
  if (server.name !== 'naive') {
    for (;;) {
      const jobs = (await post(server.url, '{ jobs(first: 100) { nodes { status } } }')).data as {
        jobs: { nodes: Array<{ status: string }> };
      };
      if (jobs.jobs.nodes.every((job) => job.status !== 'RUNNING')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    jobMs = `${Math.round(performance.now() - started)} ms`;
  }
  return (
    `| ${size === 1 ? '1 node' : `${size} nodes`} | ${server.name} ` +
    `| ${answer.extensions?.dynamodb?.requests ?? '?'} | ${answerMs} ms | ${jobMs} |`
  );
}

await main();

/** The commit measured (with `+` when the work tree differs from it). */
function gitCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim();
    return `commit ${commit}${dirty ? '+' : ''}`;
  } catch {
    return 'an unknown commit';
  }
}
