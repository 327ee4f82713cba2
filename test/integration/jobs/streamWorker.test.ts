import { describe, expect, it } from 'vitest';
import { createDynamo, createStreamsClient } from '../../../src/dynamodb/client.js';
import { storeFor } from '../../../src/storeFor.js';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import type { StreamRecord } from '../../../src/worker/jobRecords.js';
import { createWorkerHandler, type WorkerEvent } from '../../../src/worker/lambda.js';
import { startStreamWorker, type StreamWorker } from '../../../src/worker/streamWorker.js';
import { eventually } from '../../support/eventually.js';
import { snapshot } from '../../support/invariants.js';
import { loadInto } from '../../support/loadTree.js';
import { cleanupsAfterEach, jobsOf, streamsLocal, WORKER_STRATEGIES, workerServer } from '../../support/workerMode.js';
import { uniqueTable, type TestServer } from '../../support/server.js';
import { buildTree, fullTree, okData, specIds } from '../../support/tree.js';
import { traitsOf } from '../../support/traits.js';

/**
 * JOB_RUNNER=worker: the servers record jobs and leave them; the stream worker (DynamoDB Streams
 * of DynamoDB Local) takes each up as its record is written, and its sweep takes over a job
 * whose worker died. Reads answer as if every job were done all along.
 */
const MOVED = fullTree('m', [3, 3]); // 13 nodes: a job under path and closure
const FIXTURE = [
  { id: 'src', children: [MOVED, { id: 'src.x' }] },
  { id: 'dst', children: [{ id: 'd1', children: [{ id: 'd2' }] }] },
];
const LOOKED_AT = ['src', 'src.x', 'dst', 'd1', 'd2', ...specIds(MOVED)];
const local = streamsLocal();

describe.each(WORKER_STRATEGIES)('%s: jobs run by the stream worker', (strategy) => {
  const cleanups = cleanupsAfterEach();

  const server = (table: string): Promise<TestServer> => workerServer(local(), strategy, table, cleanups);

  /**
   * The worker, in this process, on the server's table (its own clients). With a lease of 300 s
   * it sweeps once as it starts and then not for 150 s: a job opened later reaches it by the
   * stream alone.
   */
  async function worker(of: TestServer, jobLeaseSeconds = 300): Promise<StreamWorker> {
    const dynamo = createDynamo({ endpoint: of.config.dynamodbEndpoint, region: of.config.region });
    const streams = createStreamsClient(of.config.dynamodbEndpoint, of.config.region);
    const admin = storeFor({ ...of.config, jobLeaseSeconds }, dynamo);
    const running = await startStreamWorker({ dynamo, streams, table: of.table, admin, idleMs: 50 });
    cleanups.push(async () => {
      await running.stop();
      streams.destroy();
      dynamo.client.destroy();
    });
    return running;
  }

  const jobs = jobsOf;

  it('leaves a big move to the worker, which finishes it; reads before and after agree', async () => {
    const writer = await server(uniqueTable());
    await loadInto(writer, FIXTURE);
    const reparent = okData(await writer.gql('mutation { reparent(id: "m", newParentId: "d2") { id depth rootId } }'));
    expect(reparent.reparent).toEqual({ id: 'm', depth: 3, rootId: 'dst' });
    if (!traitsOf(strategy).keepsPath) {
      // Its moves write O(1) items: never a job.
      expect(await jobs(writer)).toEqual([]);
      return;
    }
    // No process runs it: the servers only record jobs.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [open] = await jobs(writer);
    expect(open).toMatchObject({ kind: 'MOVE', status: 'RUNNING', done: 0 });
    const during = await snapshot(writer, LOOKED_AT, { descendantsPage: 3, followPage: 4 });
    expect(during.get('m')).toMatchObject({ parentId: 'd2', depth: 3, ancestors: ['dst', 'd1', 'd2'] });

    // Its first sweep finds the job.
    await worker(writer);
    await eventually(
      'the worker to finish the move',
      () => jobs(writer),
      ([job]) => job?.status === 'DONE',
    );
    expect(await snapshot(writer, LOOKED_AT, { descendantsPage: 3, followPage: 4 })).toEqual(during);

    // The stream tells it of the next one at once (its next sweep is 150 s away).
    okData(await writer.gql('mutation { reparent(id: "m", newParentId: "src") { id } }'));
    await eventually(
      'the worker to finish the move back',
      () => jobs(writer),
      (all) => all.length === 2 && all.every((job) => job.status === 'DONE'),
      5000,
    );
    expect(okData(await writer.gql('{ node(id: "m.2.2") { depth ancestors { id } } }')).node).toEqual({
      depth: 3,
      ancestors: [{ id: 'src' }, { id: 'm' }, { id: 'm.2' }],
    });
  });

  it('counts and finishes a big delete in the worker, the answer waiting for its count', async () => {
    const writer = await server(uniqueTable());
    await loadInto(writer, FIXTURE);
    await worker(writer);
    const deleted = okData(await writer.gql('mutation { deleteNode(id: "m") { deletedCount job { kind } } }'));
    expect(deleted.deleteNode).toEqual({ deletedCount: 13, job: { kind: 'DELETE' } });
    await eventually(
      'the delete job to end',
      () => jobs(writer),
      ([job]) => job?.status === 'DONE',
    );
    expect(okData(await writer.gql('{ node(id: "src") { childCount } m: node(id: "m.2.2") { id } }'))).toEqual({
      node: { childCount: 1 },
      m: null,
    });
  });

  it.skipIf(!traitsOf(strategy).keepsPath)("takes up a tenant's job from its record in the tenant's keys", async () => {
    const writer = await server(uniqueTable());
    const dynamo = createDynamo({ endpoint: writer.config.dynamodbEndpoint, region: writer.config.region });
    cleanups.push(() => dynamo.client.destroy());
    // The servers' store, as a request of tenant acme has it (JOB_RUNNER=worker: it runs no job).
    const acme = storeFor(writer.config, dynamo).forTenant('acme').store;
    const create = (id: string, parentId: string | null) => acme.createNode({ id, parentId, name: id });
    for (const id of ['src', 'dst']) await create(id, null);
    await create('m', 'src');
    for (const i of [0, 1, 2]) {
      await create(`m.${i}`, 'm');
      for (const j of [0, 1, 2]) await create(`m.${i}.${j}`, `m.${i}`);
    }
    const acmeJobs = async () => (await acme.listJobs({ first: 10 })).edges.map((edge) => edge.node);
    const chainOf = async (id: string) => {
      const [chain] = await acme.ancestors([(await acme.getNodes([id])).get(id)!], async (ids) => [
        ...(await acme.getNodes(ids)).values(),
      ]);
      return chain!.map((node) => node.id);
    };
    await acme.moveNode({ id: 'm', newParentId: 'dst' });
    // Open with no runner, and counted among the open jobs that /metrics reports.
    expect(await (await fetch(`${writer.url}/metrics`)).text()).toMatch(/^canopy_open_jobs 1$/m);
    // The worker's first sweep looks into the tenants listed with open jobs.
    await worker(writer);
    await eventually(
      "the worker to finish acme's move",
      acmeJobs,
      (all) => all.length === 1 && all[0]!.status === 'DONE',
      5000,
    );
    expect(await chainOf('m.2.2')).toEqual(['dst', 'm', 'm.2']);
    // The next one reaches it by the stream, under acme's prefix.
    await acme.moveNode({ id: 'm', newParentId: 'src' });
    await eventually(
      "the worker to finish acme's move back",
      acmeJobs,
      (all) => all.length === 2 && all.every((job) => job.status === 'DONE'),
      5000,
    );
    expect(await chainOf('m.2.2')).toEqual(['src', 'm', 'm.2']);
    // The default tenant has none of it.
    expect(await jobs(writer)).toEqual([]);
  });

  it('runs the jobs of a stream batch in the Lambda handler, and sweeps on a scheduled event', async () => {
    const writer = await server(uniqueTable());
    await loadInto(writer, FIXTURE);
    await buildTree(writer, fullTree('k', [3, 3]), 'dst');
    const dynamo = createDynamo({ endpoint: writer.config.dynamodbEndpoint, region: writer.config.region });
    const streams = createStreamsClient(writer.config.dynamodbEndpoint, writer.config.region);
    cleanups.push(() => (streams.destroy(), dynamo.client.destroy()));
    const handler = createWorkerHandler(storeFor(writer.config, dynamo));
    // What a DynamoDB Streams event source hands the function: the records, as the stream has them.
    const records = async (): Promise<StreamRecord[]> => {
      const arn = (await dynamo.client.send(new DescribeTableCommand({ TableName: writer.table }))).Table!
        .LatestStreamArn!;
      const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription!.Shards!;
      const all: StreamRecord[] = [];
      for (const shard of shards) {
        let iterator = (
          await streams.send(
            new GetShardIteratorCommand({
              StreamArn: arn,
              ShardId: shard.ShardId!,
              ShardIteratorType: 'TRIM_HORIZON',
            }),
          )
        ).ShardIterator;
        for (let round = 0; iterator && round < 20; round++) {
          const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
          all.push(...((page.Records ?? []) as StreamRecord[]));
          if ((page.Records ?? []).length === 0) break;
          iterator = page.NextShardIterator;
        }
      }
      return all;
    };

    const deleting = writer.gql('mutation { deleteNode(id: "m") { deletedCount } }');
    await eventually(
      'the delete job to be recorded',
      () => jobs(writer),
      (all) => all.length === 1,
    );
    // While the server still claims the subtree, its lease holds the job and the handler runs
    // nothing; once the job is accepted (by then the batch holds the claims), it runs it.
    const batch = await records();
    expect(batch.length).toBeGreaterThan(13);
    await eventually(
      'the handler to run the accepted job',
      () => handler({ Records: batch }),
      (result) => result.ran === 1,
    );
    expect(okData(await deleting).deleteNode).toEqual({ deletedCount: 13 });
    expect((await jobs(writer)).map((job) => job.status)).toEqual(['DONE']);
    // Nothing left to run: the same batch again, and a sweep, run nothing.
    expect(await handler({ Records: batch })).toEqual({ ran: 0 });
    expect(await handler({})).toEqual({ ran: 0 });

    // A scheduled event sweeps: it runs a job no stream record was handed over for.
    const second = writer.gql('mutation { deleteNode(id: "k") { deletedCount } }');
    await eventually(
      'the second delete job to be recorded',
      () => jobs(writer),
      (all) => all.some((job) => job.status === 'RUNNING'),
    );
    await eventually(
      'a scheduled sweep to run the accepted job',
      () => handler({ source: 'aws.events' } as WorkerEvent),
      (result) => result.ran === 1,
    );
    expect(okData(await second).deleteNode).toEqual({ deletedCount: 13 });
    expect((await jobs(writer)).map((job) => job.status)).toEqual(['DONE', 'DONE']);
  });
});
