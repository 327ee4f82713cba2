import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { pauses } from '../../support/pause.js';
import { startTestServer, uniqueTable, type TestServer } from '../../support/server.js';
import { buildTree, expectError, getNode, okData } from '../../support/tree.js';

/**
 * The IMPORT job of a big createNodes when its process stops (paused past its lease, as a
 * process that died): another process takes it over. Before the nodes joined the tree, it
 * gives the job up and removes them; after, it writes their projection. Either way the paused
 * process can write nothing more. Under closure, whose projection is the biggest to write.
 */
const SHORT_LEASE = { JOB_LEASE_SECONDS: '1' };
const CREATE_NODES =
  'mutation($input: CreateNodesInput!) { createNodes(input: $input) { nodes { id } job { status } } }';
const OUTLINE = 'query($id: ID!) { node(id: $id) { childCount descendants(first: 1000) { nodes { id } } } }';

/** A top node `prefix` with 8 children of 20 leaves each: 169 nodes. */
const family = (prefix: string) => [
  { id: prefix, name: prefix },
  ...Array.from({ length: 8 }, (_, i) => [
    { id: `${prefix}.${i}`, parentId: prefix, name: `child ${i}` },
    ...Array.from({ length: 20 }, (_, j) => ({
      id: `${prefix}.${i}.${j}`,
      parentId: `${prefix}.${i}`,
      name: `leaf ${j}`,
    })),
  ]).flat(),
];

describe('closure: an import job taken over', () => {
  let servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers) await server.close();
    servers = [];
  });

  const twoProcesses = async () => {
    const table = uniqueTable();
    const pause = pauses();
    const paused = await startTestServer({
      strategy: 'closure',
      table,
      middleware: pause.middleware,
      env: SHORT_LEASE,
    });
    servers.push(paused);
    await buildTree(paused, { id: 'home' });
    const other = await startTestServer({ strategy: 'closure', table, env: SHORT_LEASE });
    servers.push(other);
    return { pause, paused, other };
  };

  const importJob = async (server: TestServer) =>
    okData(await server.gql('{ jobs { nodes { kind status } } }')).jobs.nodes.find(
      (j: { kind: string }) => j.kind === 'IMPORT',
    ) as { status: string } | undefined;

  it('gives the job up, removing every node written, when its process stopped before they joined', async () => {
    const { pause, paused, other } = await twoProcesses();
    let seen = 0;
    const held = pause.next(
      (command, input) =>
        command.startsWith('TransactWrite') &&
        JSON.stringify(input.TransactItems).includes('"pending"') &&
        ++seen === 2,
    );
    const answer = paused.gql(CREATE_NODES, { input: { parentId: 'home', nodes: family('lost') } });
    await held.reached;
    const job = await eventually(
      'the job given up by the other process',
      () => importJob(other),
      (found) => found?.status === 'FAILED',
    );
    expect(job).toEqual({ kind: 'IMPORT', status: 'FAILED' });
    held.release();
    expectError(await answer, 'CONFLICT', {
      message: /^import job \S+ was taken over by another process, which gives it up; nothing was created$/,
    });
    for (const server of [paused, other]) {
      expect(await getNode(server, 'lost')).toBeNull();
      expect(await getNode(server, 'lost.0.0')).toBeNull();
      expect(okData(await server.gql(OUTLINE, { id: 'home' })).node).toEqual({
        childCount: 0,
        descendants: { nodes: [] },
      });
    }
    expect(await other.verify()).toEqual([]);
  }, 60_000);

  it('writes the projection, when its process stopped once the nodes joined', async () => {
    const { pause, paused, other } = await twoProcesses();
    let joined = false;
    const held = pause.next((command, input) => {
      if (!command.startsWith('TransactWrite')) return false;
      if (joined) return true;
      joined = JSON.stringify(input.TransactItems).includes('"joined"');
      return false;
    });
    const answer = paused.gql(CREATE_NODES, { input: { parentId: 'home', nodes: family('kept') } });
    await held.reached;
    await eventually(
      'the job finished by the other process',
      () => importJob(other),
      (found) => found?.status === 'DONE',
    );
    held.release();
    const created = okData(await answer).createNodes;
    expect(created.nodes).toHaveLength(169);
    for (const server of [paused, other]) {
      const outline = okData(await server.gql(OUTLINE, { id: 'home' })).node;
      expect(outline.childCount).toBe(1);
      expect(outline.descendants.nodes).toHaveLength(169);
    }
    expect(await other.verify()).toEqual([]);
  }, 60_000);
});
