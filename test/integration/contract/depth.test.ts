import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChain } from '../../support/loadTree.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { buildChain, createNode, createNodeRaw, expectError, getNode, okData, snapshot } from '../../support/tree.js';

const REPARENT = 'mutation($id: ID!, $to: ID) { reparent(id: $id, newParentId: $to) { id depth rootId } }';

describe.each(STRATEGIES_UNDER_TEST)('%s: depth limit', (strategy) => {
  describe('at the default MAX_TREE_DEPTH of 64', () => {
    let server: TestServer;
    let chain: string[];

    // c-0 ── c-1 ── ... ── c-64: loaded down to c-63 (not joined by moves: the depth tests of
    // moves must not depend on the fixture's own moves), c-64 created at the limit.
    beforeAll(async () => {
      server = await startTestServer({ strategy });
      chain = [...(await loadChain(server, 'c', 64)), 'c-64'];
      await createNode(server, { id: 'c-64', parentId: 'c-63' });
    }, 120_000);
    afterAll(() => server?.close());

    it('accepts a chain down to depth 64', async () => {
      expect(await getNode(server, 'c-64')).toMatchObject({ depth: 64, rootId: 'c-0', parentId: 'c-63' });
      const data = okData(await server.gql('{ node(id: "c-64") { ancestors { id depth } } }'));
      expect(data.node.ancestors).toEqual(chain.slice(0, 64).map((id, depth) => ({ id, depth })));
    });

    it('refuses a node at depth 65 with DEPTH_LIMIT and changes nothing', async () => {
      const before = await snapshot(server, ['c-0']);
      expectError(await createNodeRaw(server, { id: 'too-deep', parentId: 'c-64' }), 'DEPTH_LIMIT', {
        message: 'the write would put a node at depth 65; the limit is 64',
        details: { depth: 65, maxDepth: 64 },
      });
      expect(await getNode(server, 'too-deep')).toBeNull();
      expect(await snapshot(server, ['c-0'])).toEqual(before);
    });

    it('refuses a move that would put the moved subtree below depth 64, accepts one that reaches 64', async () => {
      await buildChain(server, 'h', 3);
      const before = await snapshot(server, ['c-0', 'h-0']);
      expectError(await server.gql(REPARENT, { id: 'h-0', to: 'c-62' }), 'DEPTH_LIMIT', {
        message: 'the write would put a node at depth 65; the limit is 64',
        details: { maxDepth: 64, depth: 65 },
      });
      expect(await snapshot(server, ['c-0', 'h-0'])).toEqual(before);

      // Under closure, the rows linking each moved node to its 62 new ancestors are more than one
      // transaction holds: the move runs as a job, and reads see it done at once.
      const moved = await server.gql(REPARENT, { id: 'h-0', to: 'c-61' });
      expect(okData(moved)).toEqual({ reparent: { id: 'h-0', depth: 62, rootId: 'c-0' } });
      expect(await getNode(server, 'h-2')).toMatchObject({ depth: 64, rootId: 'c-0', parentId: 'h-1' });
    });
  });

  describe('with 64-character ids down to depth 64', () => {
    let server: TestServer;
    let chain: string[];
    // Ids of 63 and 64 characters: a path of 64 of them is 4 KB, four times DynamoDB's sort key limit.
    const prefix = 'L'.repeat(61);

    beforeAll(async () => {
      server = await startTestServer({ strategy });
      chain = [...(await loadChain(server, prefix, 64)), `${prefix}-64`];
      await createNode(server, { id: `${prefix}-64`, parentId: `${prefix}-63` });
    }, 120_000);
    afterAll(() => server?.close());

    it('answers ancestors, descendants and moves of the deepest nodes', async () => {
      expect(chain.at(-1)).toHaveLength(64);
      const deepest = okData(
        await server.gql('query($id: ID!) { node(id: $id) { depth rootId ancestors { id } } }', { id: chain[64] }),
      );
      expect(deepest.node).toEqual({
        depth: 64,
        rootId: chain[0],
        ancestors: chain.slice(0, 64).map((id) => ({ id })),
      });
      const window = okData(
        await server.gql(
          'query($id: ID!) { node(id: $id) { descendants(minDepth: 60, maxDepth: 64) { nodes { id depth } } } }',
          { id: chain[0] },
        ),
      );
      expect(window.node.descendants.nodes).toEqual(chain.slice(60).map((id, i) => ({ id, depth: 60 + i })));
      // The last node moves up one level and back: its projection is rewritten both times.
      // Under closure, every one of its 64 rows changes distance (64 deleted, 63 put): a job.
      const up = await server.gql(REPARENT, { id: chain[64], to: chain[62] });
      expect(okData(up).reparent).toMatchObject({ depth: 63 });
      expect(await getNode(server, chain[64]!)).toMatchObject({ depth: 63, rootId: chain[0], parentId: chain[62] });
      expect(okData(await server.gql(REPARENT, { id: chain[64], to: chain[63] })).reparent).toMatchObject({
        depth: 64,
      });
    });
  });

  describe('with MAX_TREE_DEPTH 8', () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({ strategy, env: { MAX_TREE_DEPTH: '8' } });
      await buildChain(server, 'e', 9);
    });
    afterAll(() => server?.close());

    it('accepts depth 8 and refuses depth 9 with DEPTH_LIMIT', async () => {
      expect(await getNode(server, 'e-8')).toMatchObject({ depth: 8, rootId: 'e-0' });
      const before = await snapshot(server, ['e-0']);
      expectError(await createNodeRaw(server, { id: 'e-9', parentId: 'e-8' }), 'DEPTH_LIMIT', {
        message: 'the write would put a node at depth 9; the limit is 8',
        details: { maxDepth: 8, depth: 9 },
      });
      expect(await snapshot(server, ['e-0'])).toEqual(before);
      expect(await createNode(server, { id: 'e-8b', parentId: 'e-7' })).toMatchObject({ depth: 8 });
    });

    it('measures the height of the moved subtree, not only its root', async () => {
      // m-0 ── m-1 ── m-2 ── m-3 (height 3), and a side branch m-1 ── m-x.
      await buildChain(server, 'm', 4);
      await createNode(server, { id: 'm-x', parentId: 'm-1' });
      const before = await snapshot(server, ['e-0', 'm-0']);
      for (const to of ['e-5', 'e-6', 'e-7', 'e-8']) {
        expectError(await server.gql(REPARENT, { id: 'm-0', to }), 'DEPTH_LIMIT', {
          message: 'the write would put a node at depth 9; the limit is 8',
          details: { maxDepth: 8, depth: 9 },
        });
        expect(await snapshot(server, ['e-0', 'm-0'])).toEqual(before);
      }
      expect(okData(await server.gql(REPARENT, { id: 'm-0', to: 'e-4' }))).toEqual({
        reparent: { id: 'm-0', depth: 5, rootId: 'e-0' },
      });
      expect(await getNode(server, 'm-3')).toMatchObject({ depth: 8, rootId: 'e-0' });
    });

    it('refuses a move inside one tree that pushes a branch too deep', async () => {
      // n-0 ── n-1 ── ... ── n-6, and n-0 ── n-a-0 ── n-a-1 ── n-a-2 (a branch of height 2).
      await buildChain(server, 'n', 7);
      await buildChain(server, 'n-a', 3, 'n-0');
      const before = await snapshot(server, ['n-0']);
      expectError(await server.gql(REPARENT, { id: 'n-a-0', to: 'n-6' }), 'DEPTH_LIMIT', {
        message: 'the write would put a node at depth 9; the limit is 8',
        details: { maxDepth: 8, depth: 9 },
      });
      expect(await snapshot(server, ['n-0'])).toEqual(before);
      expect(okData(await server.gql(REPARENT, { id: 'n-a-0', to: 'n-5' }))).toEqual({
        reparent: { id: 'n-a-0', depth: 6, rootId: 'n-0' },
      });
      expect(await getNode(server, 'n-a-2')).toMatchObject({ depth: 8, parentId: 'n-a-1' });
    });
  });
});
