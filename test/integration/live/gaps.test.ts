import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoOptions } from '../../../src/dynamodb/client.js';
import { liveClient, subscribe } from '../../support/live.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { buildTree, okData } from '../../support/tree.js';

/**
 * A writer that dies between taking its change's number and committing leaves a number that
 * no change will ever hold. Here its transaction hangs, as a process stopped by kill -9 at that
 * instant would leave it: readers wait for the number, give it up past their patience, and go
 * on; the later change comes through, once, to live and resumed subscribers alike, and the dead
 * writer's change, had it come back, could not take a number given up.
 */
describe('a writer dead between its number and its commit', () => {
  const strategy = STRATEGIES_UNDER_TEST[0]!;
  let dying: TestServer;
  let alive: TestServer;
  let client: Client;
  let armed = false;
  /** The hanging transactions' way out, in the order they hung. */
  const hanging: Array<(error: Error) => void> = [];
  const release = (error: Error) => hanging.splice(0).forEach((reject) => reject(error));
  const hang: DynamoOptions['middleware'] = (stack) =>
    stack.add(
      (next, context) => async (args) => {
        if (armed && context.commandName === 'TransactWriteItemsCommand')
          await new Promise<never>((_resolve, reject) => hanging.push(reject));
        return next(args);
      },
      { step: 'initialize', name: 'hangLikeADeadProcess' },
    );
  /** The give-ups of numbers by the live process, as sent and as answered, in order. */
  const giveUps: string[] = [];
  const watchGiveUps: DynamoOptions['middleware'] = (stack) =>
    stack.add(
      (next, context) => async (args) => {
        const item = (args.input as { Item?: { kind?: string; seq?: number } }).Item;
        if (context.commandName !== 'PutItemCommand' || item?.kind !== 'NONE') return next(args);
        giveUps.push(`sent ${item.seq}`);
        try {
          return await next(args);
        } finally {
          giveUps.push(`answered ${item.seq}`);
        }
      },
      { step: 'initialize', name: 'watchGiveUps' },
    );

  beforeAll(async () => {
    alive = await startTestServer({ strategy, middleware: watchGiveUps });
    dying = await startTestServer({ strategy, table: alive.table, middleware: hang, verifyOnClose: false });
    client = liveClient(alive.url);
    await buildTree(alive, { id: 'g', children: [{ id: 'g.m' }, { id: 'g.n' }] });
  });
  afterAll(async () => {
    await client?.dispose();
    await dying?.close();
    await alive?.close();
  });

  const rename = (server: TestServer, id: string, name: string) =>
    server.gql('mutation($id: ID!, $name: String!) { updateNode(id: $id, name: $name) { id } }', { id, name });

  it('delivers the changes after the dead number, once, live and on resume', async () => {
    const sub = subscribe(client, { nodeId: 'g' });
    await sub.ready('g.m', () => rename(alive, 'g.m', 'poke'));
    okData(await rename(alive, 'g', 'before'));
    const [before] = await sub.until(1);

    armed = true;
    const dead = rename(dying, 'g.n', 'never');
    // Its number taken, its transaction hanging: then a change by a live process.
    await until(() => hanging.length === 1);
    okData(await rename(alive, 'g', 'after'));
    const events = await sub.until(2, 10_000);
    expect(events.map((e) => e.node?.name)).toEqual(['before', 'after']);

    release(Object.assign(new Error('the process is gone'), { name: 'SimulatedCrash' }));
    armed = false;
    expect((await dead).body.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    const resumed = subscribe(client, { nodeId: 'g', after: before!.cursor });
    const again = await resumed.until(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(again.map((e) => e.node?.name)).toEqual(['after']);
    expect(okData(await alive.gql('{ node(id: "g.n") { name } }')).node.name).toBe('g.n');
    await sub.close();
    await resumed.close();
  });

  it('gives up together the numbers that dead writers left at once', async () => {
    const sub = subscribe(client, { nodeId: 'g' });
    await sub.ready('g.m', () => rename(alive, 'g.m', 'poke again'));
    giveUps.length = 0;
    armed = true;
    const dead = ['x', 'y', 'z'].map((name) => rename(dying, 'g.n', name));
    await until(() => hanging.length === 3);
    okData(await rename(alive, 'g', 'after three'));
    const events = await sub.until(1, 10_000);
    expect(events.map((e) => e.node?.name)).toEqual(['after three']);
    // The three numbers were seen missing in one read, and given up in one wave: every give-up
    // was sent before the first was answered (one at a time, they would stall 2 s each).
    expect(giveUps.slice(0, 3).every((step) => step.startsWith('sent'))).toBe(true);
    expect(giveUps.filter((step) => step.startsWith('sent'))).toHaveLength(3);

    release(Object.assign(new Error('the process is gone'), { name: 'SimulatedCrash' }));
    armed = false;
    for (const answer of await Promise.all(dead)) {
      expect(answer.body.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    }
    await sub.close();
  });
});

/** Waits for `condition`, checked every 10 ms. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
