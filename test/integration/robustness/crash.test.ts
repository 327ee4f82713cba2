import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDynamo, type Dynamo } from '../../../src/dynamodb/client.js';
import { eventually } from '../../support/eventually.js';
import { freePort } from '../../support/globalSetup.js';
import { startTestServer, STRATEGIES_UNDER_TEST, uniqueTable, type TestServer } from '../../support/server.js';
import { loadTree } from '../../support/loadTree.js';
import { liveClient, subscribe } from '../../support/live.js';
import { fullTree, okData, specIds, type TreeSpec } from '../../support/tree.js';
import { traitsOf } from '../../support/traits.js';

/**
 * A real server process killed with SIGKILL at a random instant of a big delete, a big move or a
 * big copy (a subtree of 2,046 nodes): a live process reading the same table right after sees the tree
 * either before the change or after it, never between; it finishes the job without any restart,
 * and `tree verify` then finds 0 problems; a subscriber resuming from a change before the crash
 * gets the delete once if it committed, never if not. CRASH_TRIALS sets the trials per strategy and kind
 * (1 here; `npm run test:crash` runs 20).
 */
const TRIALS = Number(process.env.CRASH_TRIALS ?? 1);
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SUBTREE = fullTree('big', [5, 8, 50]); // 1 + 5 + 40 + 2,000 = 2,046 nodes
const SUBTREE_SIZE = 2046;
const LEASE = { JOB_LEASE_SECONDS: '1' };
/** How long the victim's work lasts at most, on DynamoDB Local: the kill comes within it. */
const WORK_MS = 4000;

let dynamo: Dynamo;
beforeAll(() => {
  dynamo = createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });
});
afterAll(() => dynamo?.client.destroy());

/** Ids spread over every level of the subtree (nodes(ids) takes at most 100). */
const SAMPLE = specIds(SUBTREE).filter((_, i) => i % 41 === 0 || i < 6);

interface Victim {
  child: ChildProcess;
  url: string;
}

/** The server as `npm start` runs it, in a process group of its own, on the test's DynamoDB. */
async function startVictim(strategy: string, table: string): Promise<Victim> {
  const port = await freePort();
  const child = spawn(`${REPO_ROOT}node_modules/.bin/tsx`, ['src/main.ts'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      DYNAMODB_TABLE: table,
      TREE_STRATEGY: strategy,
      SEED_DEMO: 'false',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      ...LEASE,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  kill(child);
  throw new Error('the server process did not become ready in 30 s');
}

/** Sends `mutation` to the victim and kills it at a random instant within `withinMs`. */
async function killDuring(victim: Victim, mutation: string, withinMs: number): Promise<void> {
  const request = fetch(`${victim.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: mutation }),
  }).catch(() => null);
  await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * withinMs)));
  kill(victim.child);
  await request;
}

/**
 * Waits, a bounded time, until a live process finished whatever the dead one started: the
 * lease to expire, then the job over 2,046 nodes (a delete under closure writes about 10,000
 * items, on a DynamoDB Local that runs one transaction at a time).
 */
const untilNoRunningJob = (reader: TestServer) =>
  eventually(
    'no running job',
    async () =>
      okData(await reader.gql('{ jobs { nodes { kind status done total } } }')).jobs.nodes as Array<{ status: string }>,
    (jobs) => jobs.every((job) => job.status !== 'RUNNING'),
    60_000,
  );

const kill = (child: ChildProcess) => {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Gone already.
  }
};

describe.each(STRATEGIES_UNDER_TEST)('%s: a server killed', (strategy) => {
  let servers: TestServer[] = [];
  let victims: ChildProcess[] = [];
  afterEach(async () => {
    victims.forEach(kill);
    for (const server of servers) await server.close();
    servers = [];
    victims = [];
  });

  /** A trial's table holding `trees`, the live process that reads it, and the victim, both closed after it. */
  const startTrial = async (trees: TreeSpec[]) => {
    const table = uniqueTable();
    const reader = await startTestServer({ strategy, table, env: LEASE });
    servers.push(reader);
    await loadTree(dynamo.doc, table, strategy, trees);
    const victim = await startVictim(strategy, table);
    victims.push(victim.child);
    return { reader, victim };
  };

  // The delete job is the same under every strategy but for the projection items it removes:
  // one run crashes it under a strategy with none and under one with the most per node;
  // `npm run test:crash` (more trials) under every strategy.
  describe.skipIf(TRIALS === 1 && traitsOf(strategy).keepsPath && !traitsOf(strategy).keepsLineage)(
    'during a big delete',
    () => {
      it.each(Array.from({ length: TRIALS }, (_, i) => i + 1))(
        'trial %i: before or after, never between, and finished by a live process',
        async () => {
          const { reader, victim } = await startTrial([{ id: 'keep', children: [SUBTREE, { id: 'keep.sibling' }] }]);
          // A live subscriber of the tree, on the live process: the cursor of a change before the crash.
          const live = liveClient(reader.url);
          const watching = subscribe(live, { nodeId: 'keep' });
          await watching.ready('keep', () => reader.gql('mutation { updateNode(id: "keep", name: "poke") { id } }'));
          okData(await reader.gql('mutation { updateNode(id: "keep.sibling", name: "before the crash") { id } }'));
          const [lastSeen] = await watching.until(1);
          await watching.close();

          await killDuring(victim, 'mutation { deleteNode(id: "big") { deletedCount } }', WORK_MS);

          const gone = SAMPLE;
          const query =
            'query($ids: [ID!]!) { nodes(ids: $ids) { id } ' +
            'keep: node(id: "keep") { childCount children { nodes { id } } } }';
          /** The state, siblings sorted by id (the tree was built in no particular order). */
          const read = async () => {
            const state = okData(await reader.gql(query, { ids: gone }));
            state.keep.children.nodes.sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id));
            return state;
          };
          const seen = await read();
          const before = {
            nodes: gone.map((id) => ({ id })),
            keep: { childCount: 2, children: { nodes: [{ id: 'big' }, { id: 'keep.sibling' }] } },
          };
          const after = {
            nodes: gone.map(() => null),
            keep: { childCount: 1, children: { nodes: [{ id: 'keep.sibling' }] } },
          };
          expect([before, after]).toContainEqual(seen);
          const wasBefore = JSON.stringify(seen) === JSON.stringify(before);

          // Without any restart, the live process finishes whatever the dead one started.
          await untilNoRunningJob(reader);
          // A transaction the dead process had already sent may commit after the first read.
          const settled = await read();
          expect(wasBefore ? [before, after] : [after]).toContainEqual(settled);
          expect(await reader.verify()).toEqual([]);

          // Resumed after the crash, the subscriber gets the delete once if it committed, never if not.
          const resumed = subscribe(live, { nodeId: 'keep', after: lastSeen!.cursor });
          okData(await reader.gql('mutation { updateNode(id: "keep.sibling", name: "after the crash") { id } }'));
          await eventually(
            'the change after the crash',
            async () => resumed.events,
            (events) => events.some((e) => e.node?.name === 'after the crash'),
          );
          const deletes = resumed.events.filter((e) => e.kind === 'DELETED' && e.nodeId === 'big');
          const applied = JSON.stringify(settled) === JSON.stringify(after);
          expect(deletes.map((e) => e.count)).toEqual(applied ? [SUBTREE_SIZE] : []);
          expect(new Set(resumed.events.map((e) => e.cursor)).size).toBe(resumed.events.length);
          await resumed.close();
          await live.dispose();
        },
      );
    },
  );

  // The copy is an IMPORT job, the same under every strategy but for the projection it writes:
  // one run crashes it under a strategy with none and under one with a projection (as the delete
  // above); `npm run test:crash` under every strategy.
  describe.skipIf(TRIALS === 1 && traitsOf(strategy).keepsPath && !traitsOf(strategy).keepsLineage)(
    'during a big copy',
    () => {
      const copied = SAMPLE.map((id) => `c-${id}`);
      const query =
        'query($ids: [ID!]!) { nodes(ids: $ids) { id depth } ' +
        'dst: node(id: "dst") { childCount children { nodes { id } } } }';
      const before = { nodes: copied.map(() => null), dst: { childCount: 0, children: { nodes: [] } } };
      const depths = new Map(SAMPLE.map((id) => [`c-${id}`, id.split('.').length]));
      const after = {
        nodes: copied.map((id) => ({ id, depth: depths.get(id)! })),
        dst: { childCount: 1, children: { nodes: [{ id: 'c-big' }] } },
      };

      it.each(Array.from({ length: TRIALS }, (_, i) => i + 1))(
        'trial %i: no partial copy is ever seen; a live process finishes it or removes it',
        async () => {
          const { reader, victim } = await startTrial([{ id: 'src', children: [SUBTREE] }, { id: 'dst' }]);

          const copy =
            'mutation { copySubtree(input: { id: "big", newParentId: "dst", idPrefix: "c-" }) { copiedCount } }';
          await killDuring(victim, copy, WORK_MS);

          const read = async () => okData(await reader.gql(query, { ids: copied }));
          const seen = await read();
          expect([before, after]).toContainEqual(seen);
          const wasBefore = JSON.stringify(seen) === JSON.stringify(before);
          await untilNoRunningJob(reader);
          const settled = await read();
          expect(wasBefore ? [before, after] : [after]).toContainEqual(settled);
          if (JSON.stringify(settled) === JSON.stringify(after)) {
            const count = okData(await reader.gql('{ node(id: "c-big") { descendantCount } }'));
            expect(count.node.descendantCount).toBe(SUBTREE_SIZE - 1);
          }
          expect(await reader.verify()).toEqual([]);
        },
      );
    },
  );

  // Under adjacency a move is one transaction of 7 items whatever the subtree: nothing to crash
  // between, and the delete above covers its jobs.
  describe.skipIf(!traitsOf(strategy).keepsPath)('during a big move', () => {
    const LEAF = 'big.4.7.49';
    const count = `descendants(maxDepth: 3, first: 1000) { nodes { id } }`;
    const query = `{
      big: node(id: "big") { parentId depth rootId ancestors { id } }
      leaf: node(id: "${LEAF}") { depth rootId ancestors { id } }
      mid: node(id: "big.2") { depth descendants(first: 1000) { nodes { id } } }
      src: node(id: "src") { childCount ${count} }
      dst: node(id: "dst.1") { childCount ${count} }
    }`;
    /** The state, with descendants as counts (their order within one depth is the strategy's). */
    const readState = async (server: TestServer) => {
      const state = okData(await server.gql(query));
      for (const key of ['mid', 'src', 'dst'])
        state[key] = { ...state[key], descendants: state[key].descendants.nodes.length };
      return state;
    };
    const before = {
      big: { parentId: 'src', depth: 1, rootId: 'src', ancestors: [{ id: 'src' }] },
      leaf: { depth: 4, rootId: 'src', ancestors: ['src', 'big', 'big.4', 'big.4.7'].map((id) => ({ id })) },
      mid: { depth: 2, descendants: 8 + 400 },
      src: { childCount: 2, descendants: 2 + 5 + 40 },
      dst: { childCount: 0, descendants: 0 },
    };
    const after = {
      big: { parentId: 'dst.1', depth: 2, rootId: 'dst', ancestors: [{ id: 'dst' }, { id: 'dst.1' }] },
      leaf: { depth: 5, rootId: 'dst', ancestors: ['dst', 'dst.1', 'big', 'big.4', 'big.4.7'].map((id) => ({ id })) },
      mid: { depth: 3, descendants: 8 + 400 },
      src: { childCount: 1, descendants: 1 },
      dst: { childCount: 1, descendants: 1 + 5 + 40 },
    };

    it.each(Array.from({ length: TRIALS }, (_, i) => i + 1))(
      'trial %i: before or after, never between, and finished by a live process',
      async () => {
        const { reader, victim } = await startTrial([
          { id: 'src', children: [SUBTREE, { id: 'src.sibling' }] },
          { id: 'dst', children: [{ id: 'dst.1' }] },
        ]);

        await killDuring(victim, 'mutation { reparent(id: "big", newParentId: "dst.1") { id } }', WORK_MS);

        const seen = await readState(reader);
        expect([before, after]).toContainEqual(seen);
        const wasBefore = JSON.stringify(seen) === JSON.stringify(before);
        await untilNoRunningJob(reader);
        const settled = await readState(reader);
        expect(wasBefore ? [before, after] : [after]).toContainEqual(settled);
        expect(await reader.verify()).toEqual([]);
      },
    );
  });
});
