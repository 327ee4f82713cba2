import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveClient, subscribe } from '../../support/live.js';
import { PartitionThroughput, throughputMiddleware, writeUnitsByPartition } from '../../support/partitionThroughput.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { buildTree, fullTree, okData } from '../../support/tree.js';

/**
 * DynamoDB throttles a partition past 1,000 write units a second; DynamoDB Local never does. With
 * the throughput of each partition emulated (test/support/partitionThroughput.ts), here scaled
 * down to 30 units a second so that a burst of 20 renames in one tree goes over it, every write
 * answers whole or SERVICE_UNAVAILABLE (never a 500, never half a write), the tree verifies, and
 * a live subscriber gets each committed change once.
 */
describe('a tree written past its partitions throughput', () => {
  const strategy = STRATEGIES_UNDER_TEST[0]!;
  const throughput = new PartitionThroughput(Infinity);
  let server: TestServer;
  let client: Client;
  const LEAVES = fullTree('hot', [20]).children!.map((child) => child.id);

  beforeAll(async () => {
    server = await startTestServer({ strategy, middleware: throughputMiddleware(throughput) });
    client = liveClient(server.url);
    await buildTree(server, fullTree('hot', [20]), null, { ordered: false });
    throughput.unitsPerSecond = 30;
    throughput.peak = 0;
  });
  afterAll(async () => {
    await client?.dispose();
    await server?.close();
  });

  it('throttles, and answers every write whole or SERVICE_UNAVAILABLE', async () => {
    const sub = subscribe(client, { nodeId: 'hot' });
    await sub.ready('hot', () => server.gql('mutation { updateNode(id: "hot", name: "poke") { id } }'));
    const throttledBefore = throughput.throttled;
    const answers = await Promise.all(
      LEAVES.map((id) =>
        server.gql('mutation ($id: ID!) { updateNode(id: $id, name: "renamed") { id name } }', { id }),
      ),
    );
    expect(throughput.throttled).toBeGreaterThan(throttledBefore);
    expect(throughput.peak).toBeLessThanOrEqual(30);
    const done = answers.flatMap((answer, i) => (answer.body.data?.updateNode ? [LEAVES[i]!] : []));
    for (const answer of answers) {
      if (answer.body.data?.updateNode) continue;
      expect(answer.body.errors?.map((e) => e.extensions?.code)).toEqual(['SERVICE_UNAVAILABLE']);
    }
    expect(done.length).toBeGreaterThan(0);

    const names = okData(await server.gql('{ node(id: "hot") { children(first: 100) { nodes { id name } } } }'));
    for (const child of names.node.children.nodes as Array<{ id: string; name: string }>) {
      expect(child.name).toBe(done.includes(child.id) ? 'renamed' : child.id);
    }
    const events = await sub.until(done.length, 20_000);
    expect(events.map((e) => e.nodeId).sort()).toEqual([...done].sort());
    await sub.close();
  });
});

describe('partition throughput emulation', () => {
  it('lets through what a partition serves in a second, and throttles past it', () => {
    let now = 0;
    const throughput = new PartitionThroughput(10, () => now);
    const put = writeUnitsByPartition('TransactWriteItemsCommand', {
      TransactItems: [
        { Put: { TableName: 't', Item: { pk: { S: 'C#a' }, sk: { S: 'S#1' }, big: { S: 'x'.repeat(1500) } } } },
        { Update: { TableName: 't', Key: { pk: { S: 'N#b' }, sk: { S: 'NODE' } } } },
      ],
    });
    expect(put.units).toEqual(
      new Map([
        ['t|C#a', 4],
        ['t|N#b', 2],
      ]),
    );
    expect(throughput.take(put.units)).toEqual([]);
    expect(throughput.take(put.units)).toEqual([]);
    expect(throughput.take(put.units)).toEqual(['t|C#a']);
    expect(throughput.throttled).toBe(1);
    now = 1000;
    expect(throughput.take(put.units)).toEqual([]);
    expect(throughput.peak).toBe(8);
  });
});
