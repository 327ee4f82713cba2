import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StrategyName } from '../../../src/storage/strategies/strategies.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type GraphQLResponse, type TestServer } from '../../support/server.js';
import { buildChain, buildTree, createNodeRaw, expectError, fullTree, okData, specIds } from '../../support/tree.js';

/**
 * What each strategy may spend in DynamoDB requests, from the strategies' table in
 * docs/design.md. Exact where the design fixes the number, upper bounds where batching may do
 * better. A strategy joins the suite by adding its row here.
 */
interface CostBudget {
  /** `node(id)` selecting stored fields (not depth or rootId, which adjacency derives): one BatchGetItem. */
  nodeLookup: number;
  /** `node(id) { children { nodes { id } } }`: the lookup plus one Query. */
  nodeWithChildren: number;
  /** 30 aliased `node(id:) { parent { id } }`: batched, at most this many. */
  thirtyNodesWithParentsMax: number;
  /** `ancestors` of a node at depth 20, lookup included. */
  ancestorsAtDepth20Max: number; // exact
  /** `descendants(maxDepth: 3, first: 1000)` of the root of a fan-out-5, depth-3 tree (155 nodes), lookup included. */
  descendantsFanOut5Depth3Max: number;
  /**
   * Read units of that read, at most: a Query is billed by the size it reads (4 KB a unit,
   * strongly consistent), a BatchGet by the item (a unit each, however small).
   */
  descendantsFanOut5Depth3ReadUnitsMax: number;
  /** The same with the default page of 100, lookup included. */
  descendantsFirstPageMax: number;
  /**
   * `nodes(ids: fan.0 .. fan.4) { descendants(first: 100) }`, 30 descendants each, lookup
   * included (exact): the five pages read their nodes in one BatchGet wave.
   */
  descendantsOfAListOfFive: number;
  /** Items written by a move of a 5-node subtree from depth 1 to depth 2 (exact). */
  itemsWrittenByMove: number;
  /** Items written by a reorder of a 5-node subtree at depth 1 among its siblings (exact). */
  itemsWrittenByReorder: number;
}

/** A row per strategy: the compiler asks for one when a strategy is added to the list. */
const BUDGETS: Record<StrategyName, CostBudget> = {
  adjacency: {
    nodeLookup: 1,
    nodeWithChildren: 2,
    thirtyNodesWithParentsMax: 3,
    ancestorsAtDepth20Max: 1 + 20,
    descendantsFanOut5Depth3Max: 1 + 1 + 5 + 25,
    // 32 small reads: a unit each.
    descendantsFanOut5Depth3ReadUnitsMax: 32,
    descendantsFirstPageMax: 1 + 1 + 5 + 25,
    // A Query per parent, level by level: edge copies carry the nodes.
    descendantsOfAListOfFive: 1 + 5 + 25,
    // The node, its old and new edge, both parents' node item and edge copy: any subtree size.
    // 7, and the hold on the moved node (the move goes one level deeper).
    itemsWrittenByMove: 7 + 1,
    // The node, its old and new edge.
    itemsWrittenByReorder: 3,
  },
  // One Query per depth in one wave; the level items carry the nodes.
  path: {
    nodeLookup: 1,
    nodeWithChildren: 2,
    thirtyNodesWithParentsMax: 2,
    ancestorsAtDepth20Max: 1 + 1,
    descendantsFanOut5Depth3Max: 1 + 3,
    // 155 level items of about 250 bytes in 3 Queries, and the lookup (read by id: over 155).
    descendantsFanOut5Depth3ReadUnitsMax: 11,
    descendantsFirstPageMax: 1 + 3,
    // Per node, a wave of 8 depth Queries (the window has no bound).
    descendantsOfAListOfFive: 1 + 5 * 8,
    // 7, plus the path of the 4 other nodes, plus a level item deleted and put per node, plus
    // both parents' level items (their childCount).
    itemsWrittenByMove: 7 + 4 + 2 * 5 + 2,
    // 3, and the node's copy in its level item (the path does not change).
    itemsWrittenByReorder: 3 + 1,
  },
  // One Query of the closure rows; rows up to distance 3 carry their nodes.
  closure: {
    nodeLookup: 1,
    nodeWithChildren: 2,
    thirtyNodesWithParentsMax: 2,
    ancestorsAtDepth20Max: 1 + 1,
    descendantsFanOut5Depth3Max: 1 + 1,
    // 155 rows of about 200 bytes in one Query, and the lookup (read by id: over 155).
    descendantsFanOut5Depth3ReadUnitsMax: 8,
    descendantsFirstPageMax: 1 + 1,
    // A Query of closure rows per node.
    descendantsOfAListOfFive: 1 + 5,
    // 7, plus the path of the 4 other nodes, plus per node 1 row deleted (old root) and 2 put,
    // plus the new parent's row (its childCount; the old parent is a root, it has none).
    itemsWrittenByMove: 7 + 4 + 3 * 5 + 1,
    // 3, and the node's copy in its row under the root (distance 1).
    itemsWrittenByReorder: 3 + 1,
  },
  // Descendants by depth as under adjacency; ancestors from the kept path, as under path.
  'nested-set': {
    nodeLookup: 1,
    nodeWithChildren: 2,
    thirtyNodesWithParentsMax: 2,
    ancestorsAtDepth20Max: 1 + 1,
    descendantsFanOut5Depth3Max: 1 + 1 + 5 + 25,
    descendantsFanOut5Depth3ReadUnitsMax: 32,
    descendantsFirstPageMax: 1 + 1 + 5 + 25,
    descendantsOfAListOfFive: 1 + 5 + 25,
    // 7, plus the path and lineage of the 4 other nodes, plus a range item deleted and put per
    // node, plus the new parent's range item (its childCount; the old parent is a root).
    itemsWrittenByMove: 7 + 4 + 2 * 5 + 1,
    // A reorder changes the keys of the subtree: 3, the lineage of the 4 other nodes, and a
    // range item deleted and put per node.
    itemsWrittenByReorder: 3 + 4 + 2 * 5,
  },
};

const costOf = (
  response: GraphQLResponse,
): { requests: number; readUnits: number; writeUnits: number; itemsWritten: number; itemsRead: number } => {
  const cost = response.body.extensions?.dynamodb;
  if (!cost) throw new Error(`no extensions.dynamodb in ${JSON.stringify(response.body)}`);
  return cost;
};

const expectCostShape = (response: GraphQLResponse): void => {
  const cost = costOf(response);
  expect(Object.keys(cost).sort()).toEqual(['itemsRead', 'itemsWritten', 'readUnits', 'requests', 'writeUnits']);
  expect(Number.isInteger(cost.requests)).toBe(true);
  for (const value of Object.values(cost)) {
    expect(typeof value).toBe('number');
    expect(value).toBeGreaterThanOrEqual(0);
  }
};

describe.each(STRATEGIES_UNDER_TEST)('%s: cost report', (strategy) => {
  let server: TestServer;
  const budget = BUDGETS[strategy];
  const FAN = fullTree('fan', [5, 5, 5]);
  const WIDE = fullTree('wide', [5, 6]);

  beforeAll(async () => {
    server = await startTestServer({ strategy });
    await Promise.all([
      buildTree(server, FAN, null, { ordered: false }),
      buildTree(server, WIDE, null, { ordered: false }),
      buildChain(server, 'deep', 21),
    ]);
  }, 120_000);
  afterAll(() => server?.close());

  it('reports requests and capacity on every response: reads, writes and errors', async () => {
    const read = await server.gql('{ node(id: "fan") { id name } }');
    expect(okData(read)).toEqual({ node: { id: 'fan', name: 'fan' } });
    expectCostShape(read);
    expect(costOf(read).readUnits).toBeGreaterThan(0);
    expect(costOf(read).writeUnits).toBe(0);

    const write = await createNodeRaw(server, { id: 'cost-write', parentId: 'wide' });
    okData(write);
    expectCostShape(write);
    expect(costOf(write).requests).toBeGreaterThanOrEqual(1);
    expect(costOf(write).writeUnits).toBeGreaterThan(0);

    const refused = await createNodeRaw(server, { id: 'cost-refused', parentId: 'no-such-parent' });
    expectError(refused, 'NOT_FOUND');
    expectCostShape(refused);
    expect(costOf(refused).writeUnits).toBe(0);

    const missing = await server.gql('{ node(id: "no-such-node") { id } }');
    expect(okData(missing)).toEqual({ node: null });
    expectCostShape(missing);
    expect(costOf(missing).requests).toBe(budget.nodeLookup);
  });

  it('looks a node up in exactly the budgeted requests', async () => {
    const response = await server.gql(
      '{ node(id: "fan.1") { id name parentId position childCount version data createdAt updatedAt } }',
    );
    expect(okData(response).node).toMatchObject({
      id: 'fan.1',
      name: 'fan.1',
      parentId: 'fan',
      childCount: 5,
      version: 1,
      data: null,
    });
    expect(costOf(response).requests).toBe(budget.nodeLookup);
    expect(costOf(response).writeUnits).toBe(0);
  });

  it('counts each request on its own, even when requests run in parallel', async () => {
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => server.gql(`{ node(id: "fan.${i % 5}") { id } }`)),
    );
    expect(responses.map((r) => costOf(r).requests)).toEqual(responses.map(() => budget.nodeLookup));
  });

  it('lists children in exactly the budgeted requests', async () => {
    const response = await server.gql('{ node(id: "fan.2") { children { nodes { id } } } }');
    // FAN was built with siblings created concurrently: their order is not known here.
    const ids = okData(response).node.children.nodes.map((n: { id: string }) => n.id);
    expect([...ids].sort()).toEqual([0, 1, 2, 3, 4].map((i) => `fan.2.${i}`));
    expect(costOf(response).requests).toBe(budget.nodeWithChildren);
  });

  it('batches 30 aliased node lookups and their parents', async () => {
    const leaves = specIds(WIDE).filter((id) => id.split('.').length === 3);
    expect(leaves).toHaveLength(30);
    const query = `{ ${leaves.map((id, i) => `n${i}: node(id: "${id}") { id parent { id } }`).join(' ')} }`;
    const response = await server.gql(query);
    const data = okData(response);
    expect(Object.values(data)).toEqual(
      leaves.map((id) => ({ id, parent: { id: id.split('.').slice(0, 2).join('.') } })),
    );
    expect(costOf(response).requests).toBeGreaterThanOrEqual(1);
    expect(costOf(response).requests).toBeLessThanOrEqual(budget.thirtyNodesWithParentsMax);
  });

  it('reads the ancestors of a node at depth 20 within budget', async () => {
    const response = await server.gql('{ node(id: "deep-20") { depth ancestors { id } } }');
    expect(okData(response)).toEqual({
      node: { depth: 20, ancestors: Array.from({ length: 20 }, (_, i) => ({ id: `deep-${i}` })) },
    });
    expect(costOf(response).requests).toBe(budget.ancestorsAtDepth20Max);
  });

  it('reads descendants to depth 3 of a fan-out-5 tree within budget', async () => {
    const response = await server.gql(
      '{ node(id: "fan") { descendants(maxDepth: 3, first: 1000) { nodes { id depth } pageInfo { hasNextPage } } } }',
    );
    const { nodes, pageInfo } = okData(response).node.descendants;
    expect(pageInfo.hasNextPage).toBe(false);
    expect(nodes.map((n: { id: string }) => n.id).sort()).toEqual(specIds(FAN).slice(1).sort());
    expect(nodes).toHaveLength(155);
    expect(costOf(response).requests).toBe(budget.descendantsFanOut5Depth3Max);
    expect(costOf(response).readUnits).toBeLessThanOrEqual(budget.descendantsFanOut5Depth3ReadUnitsMax);
  });

  it('reads the descendants of every node of a list in one wave of node reads', async () => {
    const ids = [0, 1, 2, 3, 4].map((i) => `fan.${i}`);
    const response = await server.gql(
      'query($ids: [ID!]!) { nodes(ids: $ids) { id descendants(first: 100) { nodes { id } } } }',
      { ids },
    );
    const lists = okData(response).nodes as Array<{ id: string; descendants: { nodes: Array<{ id: string }> } }>;
    for (const [i, node] of lists.entries()) {
      const below = specIds(FAN).filter((id) => id.startsWith(`fan.${i}.`));
      expect(node.descendants.nodes.map((n) => n.id).sort()).toEqual(below.sort());
    }
    expect(costOf(response).requests).toBe(budget.descendantsOfAListOfFive);
  });

  it('writes the budgeted items to move a subtree of 5 nodes', async () => {
    await buildTree(server, {
      id: 'mv-a',
      children: [{ id: 'mv-s', children: [{ id: 'mv-s0' }, { id: 'mv-s1' }, { id: 'mv-s2' }, { id: 'mv-s3' }] }],
    });
    await buildTree(server, { id: 'mv-b', children: [{ id: 'mv-b1' }] });
    const response = await server.gql('mutation { reparent(id: "mv-s", newParentId: "mv-b1") { id depth } }');
    expect(okData(response)).toEqual({ reparent: { id: 'mv-s', depth: 2 } });
    expect(costOf(response).itemsWritten).toBe(budget.itemsWrittenByMove);
    const read = await server.gql('{ node(id: "mv-s") { itemsWritten: id } }');
    expect(costOf(read).itemsWritten).toBe(0);
  });

  it('writes the budgeted items to reorder a subtree of 5 nodes', async () => {
    await buildTree(server, {
      id: 'ro',
      children: [
        { id: 'ro-a' },
        { id: 'ro-s', children: [{ id: 'ro-s0' }, { id: 'ro-s1' }, { id: 'ro-s2' }, { id: 'ro-s3' }] },
      ],
    });
    const response = await server.gql('mutation { reparent(id: "ro-s", newParentId: "ro", before: "ro-a") { id } }');
    okData(response);
    expect(costOf(response).itemsWritten).toBe(budget.itemsWrittenByReorder);
    const order = okData(await server.gql('{ node(id: "ro") { children { nodes { id } } } }')).node.children.nodes;
    expect(order).toEqual([{ id: 'ro-s' }, { id: 'ro-a' }]);
  });

  it('reads the first default page of those descendants within budget', async () => {
    const response = await server.gql(
      '{ node(id: "fan") { descendants(maxDepth: 3) { nodes { id depth } pageInfo { hasNextPage } } } }',
    );
    const { nodes, pageInfo } = okData(response).node.descendants;
    expect(pageInfo.hasNextPage).toBe(true);
    expect(nodes).toHaveLength(100);
    const depths = nodes.map((n: { depth: number }) => n.depth);
    expect(depths).toEqual([...depths].sort((a, b) => a - b));
    expect(depths.filter((d: number) => d === 1)).toHaveLength(5);
    expect(depths.filter((d: number) => d === 2)).toHaveLength(25);
    expect(costOf(response).requests).toBe(budget.descendantsFirstPageMax);
  });
});
