import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { encodeChangeCursor } from '../../../src/storage/engine/changes/changeRecord.js';
import { liveClient, subscribe, type LiveEvent } from '../../support/live.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { buildTree, okData } from '../../support/tree.js';
import { eventually } from '../../support/eventually.js';

/**
 * treeChanges over GraphQL over WebSocket, on the real server, under every strategy: each kind
 * of change in commit order with what a client patches its view with, the watched window
 * (moves in and out of it, nothing from outside), resume after a disconnect, and the refusal
 * of a cursor past the retention.
 */
describe.each(STRATEGIES_UNDER_TEST)('%s: live changes of a subtree', (strategy) => {
  let server: TestServer;
  let client: Client;
  let tree = 0;
  const fresh = () => `l${++tree}`;
  beforeAll(async () => {
    server = await startTestServer({ strategy });
    client = liveClient(server.url);
  });
  afterAll(async () => {
    await client?.dispose();
    await server?.close();
  });

  const rename = (id: string, name: string) =>
    server.gql('mutation($id: ID!, $name: String!) { updateNode(id: $id, name: $name) { id } }', { id, name });
  const reparent = (id: string, newParentId: string | null, extra = '') =>
    server.gql(`mutation($id: ID!, $p: ID) { reparent(id: $id, newParentId: $p${extra}) { id } }`, {
      id,
      p: newParentId,
    });
  const pick = (events: LiveEvent[]) =>
    events.map((e) => [e.kind, e.nodeId, e.oldParentId, e.newParentId, e.count, e.node?.name ?? null]);

  it('sends each kind of change in commit order, with the node after it and its places', async () => {
    const r = fresh();
    await buildTree(server, {
      id: r,
      children: [{ id: `${r}.a`, children: [{ id: `${r}.a1` }] }, { id: `${r}.b` }, { id: `${r}.m` }],
    });
    const sub = subscribe(client, { nodeId: r });
    await sub.ready(`${r}.m`, () => rename(`${r}.m`, 'poke'));

    okData(await server.gql(`mutation { createNode(input: { id: "${r}.c", parentId: "${r}", name: "c" }) { id } }`));
    okData(await rename(`${r}.a`, 'renamed'));
    okData(await reparent(`${r}.a1`, `${r}.b`));
    okData(await reparent(`${r}.b`, r, `, before: "${r}.a"`));
    okData(await server.gql(`mutation { deleteNode(id: "${r}.b") { deletedCount } }`));
    const events = await sub.until(5);
    expect(pick(events)).toEqual([
      ['CREATED', `${r}.c`, null, r, 1, 'c'],
      ['UPDATED', `${r}.a`, r, r, null, 'renamed'],
      ['MOVED', `${r}.a1`, `${r}.a`, `${r}.b`, null, `${r}.a1`],
      ['REORDERED', `${r}.b`, r, r, null, `${r}.b`],
      ['DELETED', `${r}.b`, r, null, 2, null],
    ]);
    expect(events[1]!.node).toMatchObject({ id: `${r}.a`, name: 'renamed', parentId: r, depth: 1 });
    expect(events[2]!.node).toMatchObject({ parentId: `${r}.b`, depth: 2 });
    expect(new Set(events.map((e) => e.cursor)).size).toBe(5);
    await sub.close();
  });

  it('watches a window: moves in and out of it, nothing from outside or below its depth', async () => {
    const r = fresh();
    await buildTree(server, {
      id: r,
      children: [
        { id: `${r}.w`, children: [{ id: `${r}.w1`, children: [{ id: `${r}.deep` }] }, { id: `${r}.mark` }] },
        { id: `${r}.o`, children: [{ id: `${r}.x`, children: [{ id: `${r}.x1` }] }] },
      ],
    });
    const sub = subscribe(client, { nodeId: `${r}.w`, maxDepth: 1 });
    await sub.ready(`${r}.mark`, () => rename(`${r}.mark`, 'poke'));

    okData(await rename(`${r}.o`, 'outside'));
    okData(await rename(`${r}.deep`, 'too deep'));
    okData(await reparent(`${r}.x`, `${r}.w`));
    okData(await rename(`${r}.x`, 'inside'));
    okData(await reparent(`${r}.x`, `${r}.o`));
    okData(await rename(`${r}.w1`, 'last'));
    const events = await sub.until(4);
    expect(pick(events)).toEqual([
      ['MOVED_IN', `${r}.x`, `${r}.o`, `${r}.w`, 2, `${r}.x`],
      ['UPDATED', `${r}.x`, `${r}.w`, `${r}.w`, null, 'inside'],
      ['MOVED_OUT', `${r}.x`, `${r}.w`, `${r}.o`, null, 'inside'],
      ['UPDATED', `${r}.w1`, `${r}.w`, `${r}.w`, null, 'last'],
    ]);
    await sub.close();
  });

  it('follows the watched subtree into another tree, and ends once it is deleted', async () => {
    const r = fresh();
    const other = fresh();
    await buildTree(server, { id: r, children: [{ id: `${r}.w`, children: [{ id: `${r}.w1` }] }] });
    await buildTree(server, { id: other });
    const sub = subscribe(client, { nodeId: `${r}.w` });
    await sub.ready(`${r}.w1`, () => rename(`${r}.w1`, 'poke'));

    okData(await reparent(`${r}.w`, other));
    okData(await rename(other, 'outside the window'));
    okData(
      await server.gql(`mutation { createNode(input: { id: "${r}.w2", parentId: "${r}.w", name: "w2" }) { id } }`),
    );
    okData(await server.gql(`mutation { deleteNode(id: "${r}.w") { deletedCount } }`));
    const events = await sub.until(3);
    expect(pick(events)).toEqual([
      ['MOVED', `${r}.w`, r, other, null, `${r}.w`],
      ['CREATED', `${r}.w2`, null, `${r}.w`, 1, 'w2'],
      ['DELETED', `${r}.w`, other, null, 3, null],
    ]);
    await eventually(
      'the end of the subscription',
      async () => sub.completed,
      (done) => done,
    );
  });

  it('resumes after a disconnect with every change missed, once and in order, then live ones', async () => {
    const r = fresh();
    await buildTree(server, { id: r, children: [{ id: `${r}.n` }] });
    const first = subscribe(client, { nodeId: r });
    await first.ready(`${r}.n`, () => rename(`${r}.n`, 'poke'));
    okData(await rename(r, 'seen'));
    const [seen] = await first.until(1);
    await first.close();

    for (let i = 0; i < 50; i++) okData(await rename(r, `missed ${i}`));
    const resumed = subscribe(client, { nodeId: r, after: seen!.cursor });
    const missed = await resumed.until(50);
    expect(missed.map((e) => e.node?.name)).toEqual(Array.from({ length: 50 }, (_, i) => `missed ${i}`));
    okData(await rename(r, 'live'));
    const all = await resumed.until(51);
    expect(all[50]!.node?.name).toBe('live');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(resumed.events).toHaveLength(51);
    await resumed.close();
  });

  it('refuses a cursor older than the retention with RESYNC_REQUIRED, and a foreign one', async () => {
    const r = fresh();
    await buildTree(server, { id: r });
    const stale = encodeChangeCursor({ rootId: r, seq: 1, at: Date.now() - 25 * 3600 * 1000 });
    const old = subscribe(client, { nodeId: r, after: stale });
    await old.until(1).catch(() => {});
    expect(old.errors.map((e) => (e as { extensions?: { code?: string } }).extensions?.code)).toEqual([
      'RESYNC_REQUIRED',
    ]);
    const bad = subscribe(client, { nodeId: r, after: 'garbage' });
    await bad.until(1).catch(() => {});
    expect(bad.errors.map((e) => (e as { extensions?: { code?: string } }).extensions?.code)).toEqual([
      'BAD_USER_INPUT',
    ]);
    const missing = subscribe(client, { nodeId: 'nowhere' });
    await missing.until(1).catch(() => {});
    expect(missing.errors.map((e) => (e as { extensions?: { code?: string } }).extensions?.code)).toEqual([
      'NOT_FOUND',
    ]);
  });
});
