import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { liveClient, subscribe } from '../../support/live.js';
import { hasRedis, startRedis, type RedisServer } from '../../support/redis.js';
import { startTestServer, STRATEGIES_UNDER_TEST, uniqueTable, type TestServer } from '../../support/server.js';
import { buildTree, okData } from '../../support/tree.js';

/**
 * Two server processes on one table, woken through a real redis-server (PUBSUB_URL): a write
 * through one reaches a subscriber of the other; writes from both to one tree reach every
 * subscriber in one order; wake-ups dropped on purpose lose no change (the readers' poll reads
 * the log). The strategy does not matter here (the contract suite runs the changes under each):
 * one of them.
 */
if (!hasRedis)
  console.warn('redis-server is not on PATH: the live tests across processes are skipped (.ci/run installs it)');

describe.runIf(hasRedis)('live changes across processes, through Redis', () => {
  const strategy = STRATEGIES_UNDER_TEST[0]!;
  let redis: RedisServer;
  let a: TestServer;
  let b: TestServer;
  let dropping = false;
  let dropped = 0;
  const clients: Client[] = [];
  const client = (server: TestServer) => {
    const made = liveClient(server.url);
    clients.push(made);
    return made;
  };
  beforeAll(async () => {
    redis = await startRedis();
    const table = uniqueTable();
    const env = { PUBSUB_URL: redis.url };
    a = await startTestServer({ strategy, table, env });
    b = await startTestServer({
      strategy,
      table,
      env,
      verifyOnClose: false,
      dropWakeUp: () => (dropping ? (dropped++, true) : false),
    });
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await b?.close();
    await a?.close();
    await redis?.stop();
  });

  const rename = (server: TestServer, id: string, name: string) =>
    server.gql('mutation($id: ID!, $name: String!) { updateNode(id: $id, name: $name) { id } }', { id, name });

  it('sends a write through one process to a subscriber of the other', async () => {
    await buildTree(a, { id: 'x', children: [{ id: 'x.m' }, { id: 'x.n' }] });
    const sub = subscribe(client(b), { nodeId: 'x' });
    await sub.ready('x.m', () => rename(a, 'x.m', 'poke'));
    const started = Date.now();
    okData(await rename(a, 'x.n', 'from a'));
    const [event] = await sub.until(1);
    expect(event).toMatchObject({ kind: 'UPDATED', nodeId: 'x.n', node: { name: 'from a' } });
    // Woken through Redis, not found by the reader's poll (every second).
    expect(Date.now() - started).toBeLessThan(900);
    await sub.close();
  });

  it('delivers concurrent writes from both processes in one order to every subscriber', async () => {
    await buildTree(a, {
      id: 'y',
      children: [{ id: 'y.m' }, ...Array.from({ length: 6 }, (_, i) => ({ id: `y.${i}` }))],
    });
    const onA = subscribe(client(a), { nodeId: 'y' });
    const onB = subscribe(client(b), { nodeId: 'y' });
    await onA.ready('y.m', () => rename(a, 'y.m', 'poke'));
    await onB.ready('y.m', () => rename(b, 'y.m', 'poke'));
    const writes = Array.from({ length: 24 }, (_, i) => rename(i % 2 ? a : b, `y.${i % 6}`, `w${i}`));
    for (const response of await Promise.all(writes)) okData(response);
    const seenA = await onA.until(24);
    const seenB = await onB.until(24);
    expect(seenA.map((e) => e.cursor)).toEqual(seenB.map((e) => e.cursor));
    expect(new Set(seenA.map((e) => e.node?.name)).size).toBe(24);
    // Per node, the order the writes committed in: its versions rise.
    for (let i = 0; i < 6; i++) {
      const versions = seenA.filter((e) => e.nodeId === `y.${i}`).map((e) => e.version as number);
      expect(versions).toEqual([...versions].sort((p, q) => p - q));
    }
    await onA.close();
    await onB.close();
  });

  it('loses no change when wake-ups are dropped: the reader finds it in the log', async () => {
    await buildTree(a, { id: 'z', children: [{ id: 'z.m' }, { id: 'z.n' }] });
    const sub = subscribe(client(b), { nodeId: 'z' });
    await sub.ready('z.m', () => rename(a, 'z.m', 'poke'));
    dropping = true;
    try {
      for (let i = 0; i < 3; i++) okData(await rename(a, 'z.n', `dropped ${i}`));
      const events = await sub.until(3, 10_000);
      expect(events.map((e) => e.node?.name)).toEqual(['dropped 0', 'dropped 1', 'dropped 2']);
      expect(dropped).toBeGreaterThan(0);
    } finally {
      dropping = false;
    }
    await sub.close();
  });
});
