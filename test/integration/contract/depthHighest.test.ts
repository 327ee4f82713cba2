import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChain } from '../../support/loadTree.js';
import { strategyNamed } from '../../../src/storage/strategies/strategies.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { createNode, getNode, okData } from '../../support/tree.js';

/**
 * The depth limit at its highest (the long suite, `npm run test:long`): the strategy's largest
 * MAX_TREE_DEPTH, a chain down to it, and every kind of write at the limit, each within one
 * transaction's 100 actions or as a job.
 */
describe.each(STRATEGIES_UNDER_TEST)('%s: depth limit', (strategy) => {
  const deepest = strategyNamed(strategy).maxDepthLimit;
  describe(`at the highest MAX_TREE_DEPTH it accepts, ${deepest}`, () => {
    let server: TestServer;
    const CREATE_NODES =
      'mutation($input: CreateNodesInput!) { createNodes(input: $input) { nodes { id depth } job { status } } }';
    const parent = `d-${deepest - 1}`;

    // d-0 ── ... ── the deepest parent, whose children lie at the limit.
    beforeAll(async () => {
      server = await startTestServer({ strategy, env: { MAX_TREE_DEPTH: String(deepest) } });
      await loadChain(server, 'd', deepest);
    }, 120_000);
    afterAll(() => server?.close());

    // A write guards the new parent's chain (adjacency) or writes a row per ancestor (closure):
    // within DynamoDB's 100 actions with the rest of the write, or a job. A transaction over 100
    // would never reach DynamoDB (the answer would be an INTERNAL_SERVER_ERROR).
    it('creates, moves, reorders, updates and deletes at the limit, each in its transaction or a job', async () => {
      await createNode(server, { id: 's1', parentId: parent });
      await createNode(server, { id: 's3', parentId: parent });
      expect(await createNode(server, { id: 's2', parentId: parent, after: 's1', before: 's3' })).toMatchObject({
        depth: deepest,
      });
      await createNode(server, { id: 'loose' });
      const moved = okData(
        await server.gql(
          `mutation { reparent(id: "loose", newParentId: "${parent}", after: "s2", before: "s3") { depth } }`,
        ),
      );
      expect(moved).toEqual({ reparent: { depth: deepest } });
      okData(
        await server.gql(`mutation { reparent(id: "s3", newParentId: "${parent}", after: "s1", before: "s2") { id } }`),
      );
      okData(await server.gql('mutation { updateNode(id: "s1", name: "renamed", data: { a: 1 }) { id } }'));
      const few = okData(
        await server.gql(CREATE_NODES, {
          input: {
            parentId: parent,
            nodes: [
              { id: 'f1', name: 'f1' },
              { id: 'f2', name: 'f2' },
            ],
          },
        }),
      );
      // Under closure, two nodes' rows at this depth need a job.
      expect(few.createNodes.nodes).toEqual([
        { id: 'f1', depth: deepest },
        { id: 'f2', depth: deepest },
      ]);
      const many = Array.from({ length: 60 }, (_, i) => ({ id: `m${i}`, name: `m${i}` }));
      const big = okData(await server.gql(CREATE_NODES, { input: { parentId: parent, nodes: many } }));
      expect(big.createNodes.job).toEqual({ status: 'DONE' });
      const children = okData(
        await server.gql(`{ node(id: "${parent}") { childCount children(first: 5) { nodes { id } } } }`),
      ).node;
      expect(children).toEqual({
        childCount: 66,
        children: { nodes: [{ id: 's1' }, { id: 's3' }, { id: 's2' }, { id: 'loose' }, { id: 'f1' }] },
      });
      okData(await server.gql(`mutation { deleteNode(id: "d-${deepest - 2}") { deletedCount } }`));
      expect(await getNode(server, parent)).toBeNull();
    }, 60_000);
  });
});
