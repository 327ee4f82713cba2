import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDynamo } from '../../../src/dynamodb/client.js';
import { loadTree } from '../../support/loadTree.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { expectError, okData, type TreeSpec } from '../../support/tree.js';
import { runTree } from '../../support/treeCli.js';

/**
 * The nested set's document keys near DynamoDB's 1,024-byte sort key limit: chains whose sibling
 * positions are long (as many inserts into one gap make them), so that a move deeper would give
 * some node of the moved subtree a key over the limit. Such a move is refused with DEPTH_LIMIT
 * and changes nothing, whether it fits one transaction or would run as a job; a move that keeps
 * every key within the limit goes through (as a job for a big subtree), and the table verifies.
 */

/** A position of 17 characters: a step of 22 bytes (position, '!', a 4-character token). */
const LONG = `a0${'V'.repeat(15)}`;
/** A position of 60 characters: a step of 65 bytes. */
const LONGER = `a0${'V'.repeat(58)}`;

/** A chain `prefix-0` (the root) .. `prefix-depth`, every node at `position`, `leaves` below the last. */
function chain(prefix: string, depth: number, leaves = 0, position = LONG): TreeSpec {
  const children = Array.from({ length: leaves }, (_, i) => ({ id: `${prefix}-leaf-${i}` }));
  let spec: TreeSpec = { id: `${prefix}-${depth}`, position, children };
  for (let i = depth - 1; i >= 0; i--) spec = { id: `${prefix}-${i}`, position, children: [spec] };
  return spec;
}

const REPARENT = 'mutation($id: ID!, $to: ID) { reparent(id: $id, newParentId: $to) { id depth pendingJob { id } } }';
const PLACE = 'query($id: ID!) { node(id: $id) { parentId depth } }';

describe('nested-set: document keys near the sort key limit', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ strategy: 'nested-set' });
    const { doc, client } = createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });
    try {
      // lc-40's key: 40 steps of 22 bytes, 880 bytes; its 70 leaves' (positions of 2 or 3
      // characters): up to 888. ld-10's: 220.
      await loadTree(doc, server.table, 'nested-set', [chain('lc', 40, 70), chain('ld', 10)]);
    } finally {
      client.destroy();
    }
  }, 120_000);
  afterAll(() => server?.close());

  it('refuses a move in one transaction that would put a key over the limit, with DEPTH_LIMIT', async () => {
    // ld-1's subtree (10 nodes, its longest key 220 bytes) under lc-40 (880): over 1,024 bytes.
    const refused = await server.gql(REPARENT, { id: 'ld-1', to: 'lc-40' });
    expectError(refused, 'DEPTH_LIMIT', {
      message:
        'node "ld-8" would need a document key of 1046 bytes, over DynamoDB\'s 1024-byte ' +
        'sort key: the sibling positions on its chain are long (many inserts into one ' +
        'gap); place it higher, or use another TREE_STRATEGY',
      details: { maxKeyBytes: 1024, keyBytes: 1046, depth: 48 },
    });
    expect(refused.body.errors![0]!.extensions).toMatchObject({ maxKeyBytes: 1024 });
    expect(refused.body.errors![0]!.extensions!.keyBytes).toBeGreaterThan(1024);
    expect(okData(await server.gql(PLACE, { id: 'ld-1' })).node).toEqual({ parentId: 'ld-0', depth: 1 });
  });

  it('refuses, before anything is written, a move that a job would run and could not finish', async () => {
    // lc-1's subtree (110 nodes: a job) under ld-10: its keys grow by 231 - 22 bytes, the
    // longest (a leaf's, 888) to 1,097.
    const refused = await server.gql(REPARENT, { id: 'lc-1', to: 'ld-10' });
    expectError(refused, 'DEPTH_LIMIT', {
      message:
        'moving "lc-1" there would give a node of its subtree a document key of 1097 ' +
        "bytes, over DynamoDB's 1024-byte sort key; place it higher, or use another " +
        'TREE_STRATEGY',
      details: { maxKeyBytes: 1024, keyBytes: 1097, depth: 11 },
    });
    expect(refused.body.errors![0]!.extensions).toMatchObject({ depth: 11, keyBytes: 1097, maxKeyBytes: 1024 });
    expect(okData(await server.gql(PLACE, { id: 'lc-1' })).node).toEqual({ parentId: 'lc-0', depth: 1 });
    expect(okData(await server.gql('{ jobs { nodes { id } } }')).jobs.nodes).toEqual([]);
  });

  it('moves the same subtree, as a job, where every key stays within the limit', async () => {
    // Under ld-2 (its key 66 bytes), the longest key grows by 55 bytes: 943.
    const moved = okData(await server.gql(REPARENT, { id: 'lc-1', to: 'ld-2' })).reparent;
    expect(moved).toMatchObject({ id: 'lc-1', depth: 3 });
    const deepest = okData(await server.gql(PLACE, { id: 'lc-40' })).node;
    expect(deepest).toEqual({ parentId: 'lc-39', depth: 42 });
    const outline = okData(
      await server.gql('{ node(id: "ld-2") { descendants(first: 1000, order: PREORDER) { nodes { id } } } }'),
    ).node.descendants.nodes.map((n: { id: string }) => n.id);
    expect(outline).toEqual([
      'ld-3',
      'ld-4',
      'ld-5',
      'ld-6',
      'ld-7',
      'ld-8',
      'ld-9',
      'ld-10',
      ...Array.from({ length: 40 }, (_, i) => `lc-${i + 1}`),
      ...Array.from({ length: 70 }, (_, i) => `lc-leaf-${i}`),
    ]);
    // The server verifies the table when it closes (afterAll), once the job is done.
  });
});

describe('nested-set: respacing crowded positions shortens the document keys', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ strategy: 'nested-set' });
    const { doc, client } = createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });
    // rg-1's subtree (121 nodes) is too big for one transaction: its reorder runs as a move job.
    const leaves = Array.from({ length: 120 }, (_, i) => ({ id: `rg-1-${i}` }));
    const rg: TreeSpec = {
      id: 'rg',
      children: [0, 1, 2].map((i) => ({ id: `rg-${i}`, position: `${LONG}${i + 1}`, children: i === 1 ? leaves : [] })),
    };
    try {
      await loadTree(doc, server.table, 'nested-set', [chain('re', 14, 0, LONGER), chain('rf', 3, 0, LONGER), rg]);
    } finally {
      client.destroy();
    }
  }, 120_000);
  afterAll(() => server?.close());

  it('respaces every crowded group (`tree reindex --respace`); a refused move then goes through', async () => {
    // rf-1's subtree (3 levels, 195 bytes of steps) under re-14 (14 steps of 65 bytes: 910): 1,105.
    expectError(await server.gql(REPARENT, { id: 'rf-1', to: 're-14' }), 'DEPTH_LIMIT', {
      message:
        'node "rf-3" would need a document key of 1051 bytes, over DynamoDB\'s 1024-byte ' +
        'sort key: the sibling positions on its chain are long (many inserts into one ' +
        'gap); place it higher, or use another TREE_STRATEGY',
      details: { maxKeyBytes: 1024, keyBytes: 1051, depth: 17 },
    });
    const outline = okData(
      await server.gql('{ node(id: "rg") { descendants(first: 1000, order: PREORDER) { nodes { id } } } }'),
    ).node.descendants.nodes;
    const run = await runTree(server, ['reindex', '--to', 'nested-set', '--respace']);
    expect(run.code).toBe(0);
    // Every parent with a child at a long position: re-0 to re-13, rf-0 to rf-2, and rg.
    expect(run.stdout).toContain('20 node(s) under 18 parent(s) given short positions');
    // The job that rewrote rg-1's subtree ended before the reindex began.
    const jobs = okData(await server.gql('{ jobs { nodes { kind status nodeId } } }')).jobs.nodes;
    expect(jobs).toEqual(expect.arrayContaining([{ kind: 'MOVE', status: 'DONE', nodeId: 'rg-1' }]));
    expect(
      okData(await server.gql('{ node(id: "rg") { descendants(first: 1000, order: PREORDER) { nodes { id } } } }')).node
        .descendants.nodes,
    ).toEqual(outline);
    // Steps of 7 bytes now (positions of 2 characters): re-14's key is 98 bytes.
    const moved = okData(await server.gql(REPARENT, { id: 'rf-1', to: 're-14' })).reparent;
    expect(moved).toMatchObject({ id: 'rf-1', depth: 15 });
    expect(await server.verify()).toEqual([]);
  }, 120_000);
});
