import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { buildTree, createNode, NODE_FIELDS, okData, type NodeView } from '../../support/tree.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const RICH_DATA = {
  title: 'Ünïcødé ✓ "quoted" \\ back',
  count: 42,
  ratio: -0.125,
  flag: false,
  nothing: null,
  tags: ['a', 1, true, null, { deep: [[]] }],
  nested: { empty: {}, list: [], level: { two: { three: 'x' } } },
};

describe.each(STRATEGIES_UNDER_TEST)('%s: reading nodes', (strategy) => {
  let server: TestServer;
  let startedAt: number;

  // q ── qa (data)
  //   ├─ qb ── qb1, qb2
  //   └─ qc ── qd (data)
  beforeAll(async () => {
    server = await startTestServer({ strategy });
    startedAt = Date.now();
    await buildTree(server, {
      id: 'q',
      name: 'Catalog',
      children: [
        { id: 'qa', name: 'A', data: RICH_DATA },
        { id: 'qb', name: 'B', children: [{ id: 'qb1' }, { id: 'qb2' }] },
        { id: 'qc', name: 'C', children: [{ id: 'qd', data: { a: { b: [1, 'two'] } } }] },
      ],
    });
  });
  afterAll(() => server?.close());

  const node = async (id: string): Promise<NodeView & { parent: { id: string; name: string } | null }> => {
    const data = okData(
      await server.gql(`query($id: ID!) { node(id: $id) { ${NODE_FIELDS} parent { id name } } }`, { id }),
    );
    return data.node;
  };

  it('answers every field of a root', async () => {
    const root = await node('q');
    expect(root).toMatchObject({
      id: 'q',
      name: 'Catalog',
      parentId: null,
      parent: null,
      rootId: 'q',
      depth: 0,
      childCount: 3,
      data: null,
      version: 1,
    });
    expect(typeof root.position).toBe('string');
    expect(root.position.length).toBeGreaterThan(0);
    for (const stamp of [root.createdAt, root.updatedAt]) {
      expect(stamp).toMatch(ISO);
      expect(Math.abs(Date.parse(stamp) - startedAt)).toBeLessThan(60_000);
    }
    expect(Date.parse(root.updatedAt)).toBeGreaterThanOrEqual(Date.parse(root.createdAt));
  });

  it('answers every field of a nested node, parent included', async () => {
    const leaf = await node('qb1');
    expect(leaf).toMatchObject({
      id: 'qb1',
      name: 'qb1',
      parentId: 'qb',
      parent: { id: 'qb', name: 'B' },
      rootId: 'q',
      depth: 2,
      childCount: 0,
      data: null,
      version: 1,
    });
    expect(leaf.createdAt).toMatch(ISO);
    expect(leaf.updatedAt).toMatch(ISO);
    expect(await node('qb')).toMatchObject({
      parentId: 'q',
      parent: { id: 'q', name: 'Catalog' },
      depth: 1,
      childCount: 2,
    });
  });

  it('round-trips a JSON object in data', async () => {
    expect((await node('qa')).data).toEqual(RICH_DATA);
    expect((await node('qd')).data).toEqual({ a: { b: [1, 'two'] } });
    const created = await createNode(server, { id: 'q-data', data: RICH_DATA });
    expect(created.data).toEqual(RICH_DATA);
    expect((await node('q-data')).data).toEqual(RICH_DATA);
  });

  it('answers null, without an error, for a missing node', async () => {
    const response = await server.gql('{ node(id: "no-such-node") { id } }');
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({ node: null });
  });

  it('nodes keeps the order of ids, with null where missing', async () => {
    const data = okData(
      await server.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id depth parent { id } } }', {
        ids: ['qc', 'missing-1', 'q', 'qb2', 'qc', 'missing-2'],
      }),
    );
    expect(data).toEqual({
      nodes: [
        { id: 'qc', depth: 1, parent: { id: 'q' } },
        null,
        { id: 'q', depth: 0, parent: null },
        { id: 'qb2', depth: 2, parent: { id: 'qb' } },
        { id: 'qc', depth: 1, parent: { id: 'q' } },
        null,
      ],
    });
    expect(okData(await server.gql('{ nodes(ids: []) { id } }'))).toEqual({ nodes: [] });
  });

  it('lists children in sibling order, ordered by position', async () => {
    const data = okData(
      await server.gql(
        '{ node(id: "q") { children { nodes { id position } edges { cursor node { id } } ' +
          'pageInfo { hasNextPage endCursor } } } }',
      ),
    );
    const children = data.node.children;
    expect(children.nodes.map((n: { id: string }) => n.id)).toEqual(['qa', 'qb', 'qc']);
    expect(children.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['qa', 'qb', 'qc']);
    const positions: string[] = children.nodes.map((n: { position: string }) => n.position);
    expect([...positions].sort()).toEqual(positions);
    expect(new Set(positions).size).toBe(3);
    expect(children.pageInfo).toEqual({ hasNextPage: false, endCursor: children.edges[2].cursor });
  });

  it('gives a leaf an empty children connection', async () => {
    const data = okData(
      await server.gql(
        '{ node(id: "qb1") { childCount children { nodes { id } edges { cursor } ' +
          'pageInfo { hasNextPage endCursor } } } }',
      ),
    );
    expect(data).toEqual({
      node: { childCount: 0, children: { nodes: [], edges: [], pageInfo: { hasNextPage: false, endCursor: null } } },
    });
  });

  it('lists ancestors root first, parent last, and none for a root', async () => {
    const data = okData(
      await server.gql(
        '{ leaf: node(id: "qb1") { ancestors { id depth } } mid: node(id: "qb") { ancestors { id } } ' +
          'root: node(id: "q") { ancestors { id } } }',
      ),
    );
    expect(data).toEqual({
      leaf: {
        ancestors: [
          { id: 'q', depth: 0 },
          { id: 'qb', depth: 1 },
        ],
      },
      mid: { ancestors: [{ id: 'q' }] },
      root: { ancestors: [] },
    });
  });

  /** The window's nodes, as `depth:id`, sorted within each depth (that order is the strategy's). */
  const window = async (id: string, args: string): Promise<string[]> => {
    const data = okData(
      await server.gql(
        `query($id: ID!) { node(id: $id) { descendants${args} { nodes { id depth } pageInfo { hasNextPage } } } }`,
        {
          id,
        },
      ),
    );
    const { nodes, pageInfo } = data.node.descendants as {
      nodes: Array<{ id: string; depth: number }>;
      pageInfo: { hasNextPage: boolean };
    };
    expect(pageInfo.hasNextPage).toBe(false);
    const depths = nodes.map((n) => n.depth);
    expect(depths).toEqual([...depths].sort((a, b) => a - b));
    return nodes.map((n) => `${n.depth}:${n.id}`).sort();
  };

  it('descendants default to minDepth 1 and no depth bound', async () => {
    expect(await window('q', '')).toEqual(['1:qa', '1:qb', '1:qc', '2:qb1', '2:qb2', '2:qd']);
  });

  it('descendants with minDepth 0 include the node itself, first', async () => {
    const data = okData(await server.gql('{ node(id: "qb") { descendants(minDepth: 0) { nodes { id } } } }'));
    expect(data.node.descendants.nodes[0]).toEqual({ id: 'qb' });
    expect(await window('qb', '(minDepth: 0)')).toEqual(['1:qb', '2:qb1', '2:qb2']);
  });

  it('descendants honour a depth window relative to the node', async () => {
    expect(await window('q', '(maxDepth: 1)')).toEqual(['1:qa', '1:qb', '1:qc']);
    expect(await window('q', '(minDepth: 2, maxDepth: 2)')).toEqual(['2:qb1', '2:qb2', '2:qd']);
    expect(await window('q', '(minDepth: 0, maxDepth: 0)')).toEqual(['0:q']);
    expect(await window('qb', '(minDepth: 1, maxDepth: 1)')).toEqual(['2:qb1', '2:qb2']);
    expect(await window('qb', '(minDepth: 2)')).toEqual([]);
    expect(await window('qb1', '')).toEqual([]);
  });
});
