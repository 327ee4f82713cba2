import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDynamo } from '../../src/dynamodb/client.js';
import { loadTree } from '../support/loadTree.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { expectError, okData, type TreeSpec } from '../support/tree.js';

/**
 * The nested set's document keys near DynamoDB's 1,024-byte sort key limit: chains whose sibling
 * positions are long (as many inserts into one gap make them), so that a move deeper would give
 * some node of the moved subtree a key over the limit. Such a move is refused with DEPTH_LIMIT
 * and changes nothing, whether it fits one transaction or would run as a job; a move that keeps
 * every key within the limit goes through (as a job for a big subtree), and the table verifies.
 */

/** A position of 17 characters: a step of 22 bytes (position, '!', a 4-character token). */
const LONG = `a0${'V'.repeat(15)}`;

/** A chain `prefix-0` (the root) .. `prefix-depth`, every node at position LONG, `leaves` below the last. */
function chain(prefix: string, depth: number, leaves = 0): TreeSpec {
  const children = Array.from({ length: leaves }, (_, i) => ({ id: `${prefix}-leaf-${i}` }));
  let spec: TreeSpec = { id: `${prefix}-${depth}`, position: LONG, children };
  for (let i = depth - 1; i >= 0; i--) spec = { id: `${prefix}-${i}`, position: LONG, children: [spec] };
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
    expectError(refused, 'DEPTH_LIMIT');
    expect(refused.body.errors![0]!.extensions).toMatchObject({ maxKeyBytes: 1024 });
    expect(refused.body.errors![0]!.extensions!.keyBytes).toBeGreaterThan(1024);
    expect(okData(await server.gql(PLACE, { id: 'ld-1' })).node).toEqual({ parentId: 'ld-0', depth: 1 });
  });

  it('refuses, before anything is written, a move that a job would run and could not finish', async () => {
    // lc-1's subtree (110 nodes: a job) under ld-10: its keys grow by 231 - 22 bytes, the
    // longest (a leaf's, 888) to 1,097.
    const refused = await server.gql(REPARENT, { id: 'lc-1', to: 'ld-10' });
    expectError(refused, 'DEPTH_LIMIT');
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
      'ld-3', 'ld-4', 'ld-5', 'ld-6', 'ld-7', 'ld-8', 'ld-9', 'ld-10',
      ...Array.from({ length: 40 }, (_, i) => `lc-${i + 1}`),
      ...Array.from({ length: 70 }, (_, i) => `lc-leaf-${i}`),
    ]);
    // The server verifies the table when it closes (afterAll), once the job is done.
  });
});
