import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createDynamo } from '../../../src/dynamodb/client.js';
import { eventually } from '../../support/eventually.js';
import { loadTree } from '../../support/loadTree.js';
import { uniqueTable, type TestServer } from '../../support/server.js';
import { traitsOf } from '../../support/traits.js';
import { fullTree, okData } from '../../support/tree.js';
import { spawnTree } from '../../support/treeCli.js';
import {
  cleanupsAfterEach,
  jobsOf,
  streamsLocal,
  WORKER_MODE,
  WORKER_STRATEGIES,
  workerServer,
} from '../../support/workerMode.js';

/**
 * JOB_RUNNER=worker (long suite): a worker process killed in the middle of a big move; the reads
 * answer as if the move were done, with no runner, and a second worker process takes the job
 * over when its lease expires and finishes it. `npm test` runs the worker in this process
 * (streamWorker.test.ts).
 */
const local = streamsLocal();

describe.each(WORKER_STRATEGIES)('%s: a worker killed mid-job', (strategy) => {
  const cleanups = cleanupsAfterEach();
  const server = (table: string): Promise<TestServer> => workerServer(local(), strategy, table, cleanups);
  const jobs = jobsOf;

  it.skipIf(!traitsOf(strategy).keepsPath)(
    'finishes a move whose worker was killed mid-job: another worker takes it over',
    { timeout: 120_000 },
    async () => {
      const table = uniqueTable();
      const writer = await server(table);
      // 341 nodes: a move of over a hundred transactions of 10 items.
      const big = fullTree('big', [4, 4, 4, 4]);
      const { doc, client } = createDynamo({
        endpoint: writer.config.dynamodbEndpoint,
        region: writer.config.region,
      });
      await loadTree(doc, table, strategy, [{ id: 'home', children: [big] }, { id: 'away' }]);
      client.destroy();

      const first = spawnWorker(writer);
      cleanups.push(() => first.kill('SIGKILL'));
      await waitForLine(first, /worker reading the stream/);
      okData(await writer.gql('mutation { reparent(id: "big", newParentId: "away") { id } }'));
      const [job] = await eventually(
        'the first worker to be partway',
        () => jobs(writer),
        ([j]) => j !== undefined && j.done > 0,
        30_000,
      );
      first.kill('SIGKILL');
      await new Promise((resolve) => first.once('exit', resolve));
      const [stalled] = await jobs(writer);
      expect(stalled).toMatchObject({ id: job!.id, status: 'RUNNING' });
      expect(stalled!.done).toBeLessThan(341);

      // Reads answer as if the move were done while it is half done, with no runner.
      const during = okData(await writer.gql('{ node(id: "big.3.3.3.3") { depth rootId ancestors { id } } }')).node;
      expect(during).toEqual({
        depth: 5,
        rootId: 'away',
        ancestors: ['away', 'big', 'big.3', 'big.3.3', 'big.3.3.3'].map((id) => ({ id })),
      });

      const second = spawnWorker(writer);
      cleanups.push(() => second.kill('SIGKILL'));
      await eventually(
        'the second worker to finish the move',
        () => jobs(writer),
        ([j]) => j?.status === 'DONE',
        60_000,
      );
      expect(okData(await writer.gql('{ node(id: "big.3.3.3.3") { depth rootId ancestors { id } } }')).node).toEqual(
        during,
      );
      expect(await writer.verify()).toEqual([]);

      // SIGTERM: it says so, stops, and exits 0.
      const exited = new Promise<number | null>((resolve) => second.once('exit', resolve));
      second.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect((second as ChildProcess & { output: () => string }).output()).toMatch(/SIGTERM: the worker stops/);
    },
  );
});

/** `npm run tree -- worker` on the server's table, as its own process; `output()` keeps its last lines. */
function spawnWorker(of: TestServer): ChildProcess {
  const child = spawnTree(of, ['worker'], WORKER_MODE);
  child.stdin.end();
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  (child as ChildProcess & { output: () => string }).output = () => output;
  return child;
}

async function waitForLine(child: ChildProcess, line: RegExp): Promise<void> {
  const output = (child as ChildProcess & { output: () => string }).output;
  await eventually(
    'the worker to start',
    async () => output(),
    (text) => line.test(text) || child.exitCode !== null,
    60_000,
  );
  if (child.exitCode !== null) throw new Error(`the worker exited (${child.exitCode}):\n${output()}`);
}
