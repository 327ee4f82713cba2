import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { changeCursors } from '../../../src/storage/cursor.js';
import { createCursorCodec } from '../../../src/storage/cursor.js';
import { liveClient, subscribe, type LiveEvent } from '../../support/live.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { buildTree, okData } from '../../support/tree.js';
import { eventually } from '../../support/eventually.js';
import { pauses } from '../../support/pause.js';

/**
 * treeChanges over GraphQL over WebSocket, on the real server, under every strategy: each kind
 * of change in commit order with what a client patches its view with, the watched window
 * (moves in and out of it, nothing from outside), resume after a disconnect (into the tree the
 * watched node went to), where a subscription starts around a change in flight, a read's change
 * cursor, and the refusal of a cursor past the retention.
 */
describe.each(STRATEGIES_UNDER_TEST)('%s: live changes of a subtree', (strategy) => {
  let server: TestServer;
  let client: Client;
  let tree = 0;
  const fresh = () => `l${++tree}`;
  const held = pauses();
  beforeAll(async () => {
    server = await startTestServer({ strategy, middleware: held.middleware });
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
    const cursors = changeCursors(createCursorCodec(server.config.cursorSecret));
    const stale = cursors.encode({ rootId: r, seq: 1, at: Date.now() - 25 * 3600 * 1000, skip: [] });
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

  /** Holds the next transaction (a write that took its change's number) until released. */
  const holdWrite = () => held.next((command) => command.startsWith('TransactWrite'));
  /** Holds the next forward read of the tree's log: a subscription has its position by then. */
  const holdLogRead = (rootId: string) =>
    held.next(
      (command, input) =>
        command.startsWith('Query') &&
        input.ScanIndexForward !== false &&
        JSON.stringify(input).includes(`"C#${rootId}"`),
    );
  const settled = async (sub: { events: LiveEvent[] }, count: number) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sub.events).toHaveLength(count);
  };

  it('starts without after before a change in flight: it gets that change, not those committed before', async () => {
    const r = fresh();
    await buildTree(server, { id: r, children: [{ id: `${r}.a` }, { id: `${r}.b` }] });
    const write = holdWrite();
    const inFlight = rename(`${r}.a`, 'in flight');
    await write.reached;
    okData(await rename(`${r}.b`, 'committed before'));
    const read = holdLogRead(r);
    const sub = subscribe(client, { nodeId: r });
    await read.reached;
    read.release();
    write.release();
    okData(await inFlight);
    okData(await rename(r, 'after'));
    expect(pick(await sub.until(2))).toEqual([
      ['UPDATED', `${r}.a`, r, r, null, 'in flight'],
      ['UPDATED', r, null, null, null, 'after'],
    ]);
    await settled(sub, 2);
    await sub.close();
  });

  /** A subscription to `${r}.w`, closed after its first change: that change's cursor. */
  const cursorBefore = async (r: string) => {
    const sub = subscribe(client, { nodeId: `${r}.w` });
    await sub.ready(`${r}.w1`, () => rename(`${r}.w1`, 'poke'));
    okData(await rename(`${r}.w`, 'seen'));
    const [seen] = await sub.until(1);
    await sub.close();
    return seen!.cursor;
  };
  const twoTrees = async () => {
    const [r, other] = [fresh(), fresh()];
    await buildTree(server, { id: r, children: [{ id: `${r}.w`, children: [{ id: `${r}.w1` }] }, { id: `${r}.n` }] });
    await buildTree(server, { id: other });
    return [r, other] as const;
  };

  it("resumes from the cursor of a move into another tree in that tree's log", async () => {
    const [r, other] = await twoTrees();
    const sub = subscribe(client, { nodeId: `${r}.w` });
    await sub.ready(`${r}.w1`, () => rename(`${r}.w1`, 'poke'));
    okData(await reparent(`${r}.w`, other));
    const [moved] = await sub.until(1);
    await sub.close();
    okData(await rename(`${r}.w1`, 'after the move'));
    const resumed = subscribe(client, { nodeId: `${r}.w`, after: moved!.cursor });
    expect(pick(await resumed.until(1))).toEqual([['UPDATED', `${r}.w1`, `${r}.w`, `${r}.w`, null, 'after the move']]);
    await settled(resumed, 1);
    await resumed.close();
  });

  it('resumes through a batch that takes the watch to another tree: each change once', async () => {
    const [r, other] = await twoTrees();
    const after = await cursorBefore(r);
    okData(await reparent(`${r}.w`, other));
    okData(await reparent(`${r}.n`, `${r}.w`));
    const resumed = subscribe(client, { nodeId: `${r}.w`, after });
    await resumed.until(2);
    okData(await rename(`${r}.w1`, 'live'));
    expect(pick(await resumed.until(3))).toEqual([
      ['MOVED', `${r}.w`, r, other, null, 'seen'],
      ['MOVED_IN', `${r}.n`, r, `${r}.w`, 1, `${r}.n`],
      ['UPDATED', `${r}.w1`, `${r}.w`, `${r}.w`, null, 'live'],
    ]);
    await settled(resumed, 3);
    await resumed.close();
  });

  it('resumes through a batch that takes the watch to another tree and back: it reads the tree it is in', async () => {
    const [r, other] = await twoTrees();
    const after = await cursorBefore(r);
    okData(await reparent(`${r}.w`, other));
    okData(await reparent(`${r}.w`, r));
    const resumed = subscribe(client, { nodeId: `${r}.w`, after });
    await resumed.until(2);
    okData(await rename(`${r}.w1`, 'live'));
    expect(pick(await resumed.until(3))).toEqual([
      ['MOVED', `${r}.w`, r, other, null, 'seen'],
      ['MOVED', `${r}.w`, other, r, null, 'seen'],
      ['UPDATED', `${r}.w1`, `${r}.w`, `${r}.w`, null, 'live'],
    ]);
    await settled(resumed, 3);
    await resumed.close();
  });

  it("reads a node's change cursor: after it come the changes since the read, one in flight then too", async () => {
    const r = fresh();
    await buildTree(server, { id: r, children: [{ id: `${r}.a` }, { id: `${r}.b` }] });
    const write = holdWrite();
    const inFlight = rename(`${r}.a`, 'in flight');
    await write.reached;
    const read = okData(await server.gql(`{ node(id: "${r}") { name changeCursor } }`));
    expect(read.node.name).toBe(r);
    write.release();
    okData(await inFlight);
    okData(await rename(`${r}.b`, 'after the read'));
    const sub = subscribe(client, { nodeId: r, after: read.node.changeCursor });
    expect(pick(await sub.until(2))).toEqual([
      ['UPDATED', `${r}.a`, r, r, null, 'in flight'],
      ['UPDATED', `${r}.b`, r, r, null, 'after the read'],
    ]);
    await settled(sub, 2);
    await sub.close();
  });
});
