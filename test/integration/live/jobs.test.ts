import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_FIELDS, liveClient, subscribe } from '../../support/live.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { traitsOf } from '../../support/traits.js';
import { eventually } from '../../support/eventually.js';
import { buildTree, fullTree, okData } from '../../support/tree.js';

/**
 * Moves and deletes that run as jobs (transactions of 10 items): the change comes when the write
 * answers (every read already sees it), the job's progress after, then its end.
 */
/** The events so far, once their kinds satisfy `done`. */
const kindsUntil = <E extends { kind: string }>(events: E[], done: (kinds: string[]) => boolean) =>
  eventually(
    'the job events',
    async () => [...events],
    (seen) => done(seen.map((e) => e.kind)),
    15_000,
  );

describe.each(STRATEGIES_UNDER_TEST)('%s: live changes of big moves and deletes', (strategy) => {
  let server: TestServer;
  let client: Client;
  beforeAll(async () => {
    server = await startTestServer({ strategy, env: { TRANSACTION_ITEMS: '10' } });
    client = liveClient(server.url);
  });
  afterAll(async () => {
    await client?.dispose();
    await server?.close();
  });

  it('sends the move or delete as it answers, then its job’s progress and end', async () => {
    await buildTree(server, { id: 'j', children: [fullTree('j.a', [3, 3]), { id: 'j.b' }, { id: 'j.m' }] });
    const sub = subscribe(client, { nodeId: 'j' }, `${CHANGE_FIELDS} job { kind }`);
    await sub.ready('j.m', () => server.gql('mutation { updateNode(id: "j.m", name: "poke") { id } }'));

    okData(await server.gql('mutation { reparent(id: "j.a", newParentId: "j.b") { id } }'));
    const movesAsJob = traitsOf(strategy).keepsPath;
    const afterMove = movesAsJob
      ? await kindsUntil(sub.events, (kinds) => kinds.includes('JOB_DONE'))
      : await sub.until(1);
    expect(afterMove[0]).toMatchObject({ kind: 'MOVED', nodeId: 'j.a', oldParentId: 'j', newParentId: 'j.b' });
    if (movesAsJob) {
      expect(afterMove.slice(1).map((e) => e.kind)).toEqual([
        ...afterMove.slice(1, -1).map(() => 'JOB_PROGRESS'),
        'JOB_DONE',
      ]);
      expect(afterMove.length).toBeGreaterThan(2);
      expect(afterMove.at(-1)).toMatchObject({ nodeId: 'j.a', job: { kind: 'MOVE' } });
    }

    const moved = sub.events.length;
    const deleted = okData(await server.gql('mutation { deleteNode(id: "j.b") { deletedCount job { id } } }'));
    expect(deleted.deleteNode.job).not.toBeNull();
    const events = (await kindsUntil(sub.events, (kinds) => kinds.slice(moved).includes('JOB_DONE'))).slice(moved);
    expect(events[0]).toMatchObject({ kind: 'DELETED', nodeId: 'j.b', count: 14, job: { kind: 'DELETE' } });
    expect(events.slice(1).map((e) => e.kind)).toEqual([...events.slice(1, -1).map(() => 'JOB_PROGRESS'), 'JOB_DONE']);
    await sub.close();
  });

  it('sends a copy and a restore once each is whole, as COPIED and RESTORED with their size', async () => {
    await buildTree(server, { id: 'k', children: [fullTree('k.a', [3, 3]), { id: 'k.b' }] });
    const sub = subscribe(client, { nodeId: 'k' }, `${CHANGE_FIELDS} job { kind }`);
    await sub.ready('k.b', () => server.gql('mutation { updateNode(id: "k.b", name: "poke") { id } }'));

    // 13 nodes in transactions of 10 items: an IMPORT job, whose progress comes first.
    const copy = 'mutation { copySubtree(input: { id: "k.a", newParentId: "k.b", idPrefix: "c-" }) { copiedCount } }';
    expect(okData(await server.gql(copy))).toEqual({ copySubtree: { copiedCount: 13 } });
    const copied = await kindsUntil(sub.events, (kinds) => kinds.includes('COPIED'));
    expect(copied.at(-1)).toMatchObject({ kind: 'COPIED', nodeId: 'c-k.a', newParentId: 'k.b', count: 13 });
    expect(copied.slice(0, -1).map((e) => e.kind)).toEqual(copied.slice(0, -1).map(() => 'JOB_PROGRESS'));

    const seen = sub.events.length;
    okData(await server.gql('mutation { deleteNode(id: "c-k.a") { deletedCount } }'));
    okData(await server.gql('mutation { restoreNode(id: "c-k.a") { id } }'));
    const back = (await kindsUntil(sub.events, (kinds) => kinds.slice(seen).includes('RESTORED'))).slice(seen);
    expect(back.filter((e) => ['DELETED', 'RESTORED'].includes(e.kind))).toMatchObject([
      { kind: 'DELETED', nodeId: 'c-k.a', count: 13 },
      { kind: 'RESTORED', nodeId: 'c-k.a', newParentId: 'k.b', count: 13 },
    ]);
    await sub.close();
  });
});
