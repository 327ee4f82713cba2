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
  let release: (error: Error) => void = () => {};
  const hang: DynamoOptions['middleware'] = (stack) =>
    stack.add(
      (next, context) => async (args) => {
        if (armed && context.commandName === 'TransactWriteItemsCommand')
          await new Promise<never>((_resolve, reject) => (release = reject));
        return next(args);
      },
      { step: 'initialize', name: 'hangLikeADeadProcess' },
    );

  beforeAll(async () => {
    alive = await startTestServer({ strategy });
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
    await new Promise((resolve) => setTimeout(resolve, 300));
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
});
