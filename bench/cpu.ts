/**
 * Server CPU per operation, side by side (`npm run bench:cpu`): the naive server and Canopy under
 * one strategy take turns at one workload, at concurrency 16, round after round in one run, so
 * that a noisy machine weighs on both alike. Prints each round's CPU per operation and ratio, and
 * the medians. Options: `--strategy S` (closure), `--workload NAME` (a prefix of a workload of
 * `npm run bench`: "node lookup"), `--rounds N` (12), `--seconds S` (4 per server and round),
 * `--delay MS` (5 per DynamoDB call), `--semi-space MB` (Canopy's young generation semi-space, 128
 * as `npm start` sets it; 16 is Node's default). The first round warms both servers up and is not
 * counted. Also printed: the nodes one operation answers, and CPU per node answered. The peak
 * memory of both processes is printed last. With CPU_PROF=DIR, Canopy writes its CPU profile
 * (`node --cpu-prof`) into DIR when the run ends.
 */
import { STRATEGY_NAMES, type StrategyName } from '../src/storage/strategies/strategies.js';
import { cpuMs, peakRssMb, post, runFor, runOnce, startBench, type Server } from './servers.js';
import { trees, WORKLOADS } from './workloads.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string =>
  args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback;
const strategy = option('--strategy', 'closure') as StrategyName;
const workload = WORKLOADS.find((w) => w.name.startsWith(option('--workload', 'node lookup')));
const ROUNDS = Number(option('--rounds', '12'));
const SECONDS = Number(option('--seconds', '4'));
const DELAY_MS = Number(option('--delay', '5'));
const SEMI_SPACE_MB = Number(option('--semi-space', '128'));
const CONCURRENCY = 16;

if (!STRATEGY_NAMES.includes(strategy) || !workload || !(ROUNDS >= 2) || !(SECONDS > 0) || !(SEMI_SPACE_MB > 0)) {
  console.error(
    `usage: npm run bench:cpu -- [--strategy ${STRATEGY_NAMES.join('|')}] ` +
      `[--workload "${WORKLOADS.map((w) => w.name).join('" | "')}"] ` +
      '[--rounds N>=2] [--seconds S] [--delay MS] [--semi-space MB]',
  );
  process.exit(2);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

// CPU_PROF=DIR: Canopy writes its CPU profile there when the run ends (node --cpu-prof).
const profile = process.env.CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF}`] : [];
const bench = await startBench(trees([]), [strategy], DELAY_MS, [`--max-semi-space-size=${SEMI_SPACE_MB}`, ...profile]);
try {
  const [naive, canopy] = bench.servers as [Server, Server];
  for (const server of [naive, canopy]) for (let i = 0; i < 20; i++) await runOnce(server, workload);
  // The nodes one operation answers (both servers answer the same): CPU per item is per node answered.
  let items = 0;
  for (const query of workload.operations)
    items += JSON.stringify((await post(canopy.url, query)).data).split('"id":').length - 1;
  console.log(
    `${workload.name}, ${strategy} (semi-space ${SEMI_SPACE_MB} MB) against naive, ` +
      `${ROUNDS} rounds of ${SECONDS} s each at concurrency ${CONCURRENCY}, ` +
      `${DELAY_MS} ms per DynamoDB call`,
  );
  console.log(`${items} nodes answered per operation`);
  console.log('\n| round | naive CPU/op | canopy CPU/op | ratio |\n| --- | --- | --- | --- |');
  const rows: Array<{ naive: number; canopy: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const perOp = [];
    for (const server of [naive, canopy]) {
      const before = cpuMs(server.child);
      const { done } = await runFor(server, workload, CONCURRENCY, SECONDS * 1000);
      perOp.push((cpuMs(server.child) - before) / done);
    }
    const [n, c] = perOp as [number, number];
    console.log(
      `| ${round === 0 ? 'warm-up' : round} | ${n.toFixed(3)} ms | ${c.toFixed(3)} ms | ${(c / n).toFixed(2)} |`,
    );
    if (round > 0) rows.push({ naive: n, canopy: c });
  }
  const ratios = rows.map((r) => r.canopy / r.naive);
  const [naiveMs, canopyMs] = [median(rows.map((r) => r.naive)), median(rows.map((r) => r.canopy))];
  const perItem = (ms: number) => `${((ms * 1000) / Math.max(1, items)).toFixed(1)} µs per node`;
  console.log(
    `\nmedian: naive ${naiveMs.toFixed(3)} ms (${perItem(naiveMs)}), ` +
      `canopy ${canopyMs.toFixed(3)} ms (${perItem(canopyMs)}); ` +
      `ratio median ${median(ratios).toFixed(2)}, ` +
      `from ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}`,
  );
  console.log(`peak memory (RSS): naive ${peakRssMb(naive.child)} MB, canopy ${peakRssMb(canopy.child)} MB`);
} finally {
  await bench.close();
}
