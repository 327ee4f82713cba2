import { afterEach, describe, expect, it } from 'vitest';
import { pauseWhen } from '../../support/pause.js';
import { startTestServer, STRATEGIES_UNDER_TEST, uniqueTable, type TestServer } from '../../support/server.js';
import { buildChain, okData } from '../../support/tree.js';

/**
 * The depth limit against concurrent writes: a move that takes a subtree deeper, held just
 * before it commits (after it read the subtree's height), while another process creates a
 * node under the subtree's deepest node. Whichever commits first, the other is refused with a
 * typed code, and no node ever lies past MAX_TREE_DEPTH (verify, run on close, checks it).
 */
const LIMIT = { MAX_TREE_DEPTH: '6' };

/** Holds the move's own transaction (the one that deletes the moved node's old edge). */
type TransactItem = { Delete?: { Key?: { sk?: unknown } }; Put?: { Item?: { pk?: unknown } } };

/** Holds the first transaction after `arm()` that has an item `match` picks. */
const holdTransactionWith = (match: (item: TransactItem) => boolean) =>
  pauseWhen(
    (commandName, input) =>
      commandName.startsWith('TransactWrite') && ((input.TransactItems ?? []) as TransactItem[]).some(match),
  );

const holdMove = () =>
  holdTransactionWith((item) => {
    const sk = item.Delete?.Key?.sk;
    return typeof sk === 'string' && sk.startsWith('E#');
  });

describe.each(STRATEGIES_UNDER_TEST)('%s: the depth limit against concurrent writes', (strategy) => {
  let servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers) await server.close();
    servers = [];
  });

  it('a deep create while a move takes the subtree deeper: one is refused, none past the limit', async () => {
    const table = uniqueTable();
    const hold = holdMove();
    const mover = await startTestServer({ strategy, table, env: LIMIT, middleware: hold.middleware });
    const creator = await startTestServer({ strategy, table, env: LIMIT });
    servers.push(mover, creator);
    // a-0 .. a-3 (a-1's subtree is 3 deep), and b-0 .. b-3: a-1 under b-3 puts a-3 at depth 6.
    await buildChain(mover, 'a', 4);
    await buildChain(mover, 'b', 4);

    hold.arm();
    const move = mover.gql('mutation { reparent(id: "a-1", newParentId: "b-3") { id depth } }');
    await hold.reached;
    // The move read the height; a node under a-3 now would end at depth 7 once it commits.
    const create = await creator.gql(
      'mutation { createNode(input: { id: "deep", parentId: "a-3", name: "deep" }) { id depth } }',
    );
    hold.release();
    const moved = await move;

    const codes = [create, moved].map((r) => (r.body.errors?.[0]?.extensions?.code as string | undefined) ?? 'ok');
    expect([
      ['ok', 'DEPTH_LIMIT'],
      ['CONFLICT', 'ok'],
    ]).toContainEqual(codes);
    const deepest = okData(await creator.gql('{ node(id: "a-3") { depth childCount } }')).node;
    expect(deepest.depth + (deepest.childCount > 0 ? 1 : 0)).toBeLessThanOrEqual(6);
  });

  it('a deep create that read its chain before a move job: refused, none past the limit', async () => {
    const table = uniqueTable();
    // The create's own transaction (the one that puts the new node), held after its reads.
    const hold = holdTransactionWith((item) => item.Put?.Item?.pk === 'N#deep');
    // 10 items per transaction: under path and closure, moving a-1's 3 nodes is a job.
    const mover = await startTestServer({ strategy, table, env: { ...LIMIT, TRANSACTION_ITEMS: '10' } });
    const creator = await startTestServer({ strategy, table, env: LIMIT, middleware: hold.middleware });
    servers.push(mover, creator);
    await buildChain(mover, 'a', 4);
    await buildChain(mover, 'b', 4);

    hold.arm();
    // a-3 is at depth 3: a node under it is within the limit, as the create reads it.
    const create = creator.gql(
      'mutation { createNode(input: { id: "deep", parentId: "a-3", name: "deep" }) { id depth } }',
    );
    await hold.reached;
    // a-1 under b-3 puts a-3 at depth 6: the node the create is about to add would be at 7.
    const moved = okData(await mover.gql('mutation { reparent(id: "a-1", newParentId: "b-3") { id depth } }'));
    expect(moved.reparent.depth).toBe(4);
    hold.release();
    const refused = await create;
    expect(['DEPTH_LIMIT', 'CONFLICT']).toContain(refused.body.errors?.[0]?.extensions?.code);
    expect(okData(await creator.gql('{ node(id: "deep") { id } }')).node).toBeNull();
    const deepest = okData(await creator.gql('{ node(id: "a-3") { depth childCount } }')).node;
    expect(deepest).toEqual({ depth: 6, childCount: 0 });
  });
});
