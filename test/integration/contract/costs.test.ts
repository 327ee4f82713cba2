import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOUNCE_WAIT_MS } from '../../../src/storage/engine/core/openJobs.js';
import { contractCostsOf } from '../../support/contractCosts.js';
import { pauseWhen } from '../../support/pause.js';
import {
  costOf,
  plannedRequests,
  startTestServer,
  STRATEGIES_UNDER_TEST,
  type GraphQLResponse,
  type TestServer,
} from '../../support/server.js';
import { buildChain, buildTree, createNodeRaw, expectError, fullTree, okData, specIds } from '../../support/tree.js';

/**
 * What each strategy may spend in DynamoDB requests, as its folder declares it
 * (`contractCosts.ts`, `requests`), from the strategies' table in docs/design.md. Exact where the
 * design fixes the number, upper bounds where batching may do better.
 */

const expectCostShape = (response: GraphQLResponse): void => {
  const cost = costOf(response);
  expect(Object.keys(cost).sort()).toEqual([
    'awsWriteUnits',
    'itemsRead',
    'itemsReturned',
    'itemsWritten',
    'readUnits',
    'repeatedItemsRead',
    'repeatedRequests',
    'requests',
    'writeUnits',
  ]);
  expect(Number.isInteger(cost.requests)).toBe(true);
  for (const value of Object.values(cost)) {
    expect(typeof value).toBe('number');
    expect(value).toBeGreaterThanOrEqual(0);
  }
};

describe.each(STRATEGIES_UNDER_TEST)('%s: cost report', (strategy) => {
  let server: TestServer;
  // Holds the first BatchGetItem after `arm()`: a read that takes long.
  const slowRead = pauseWhen((command) => command.startsWith('BatchGet'));
  const budget = contractCostsOf(strategy).requests;
  const FAN = fullTree('fan', [5, 5, 5]);
  const WIDE = fullTree('wide', [5, 6]);

  beforeAll(async () => {
    server = await startTestServer({ strategy, middleware: slowRead.middleware });
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
    expect(costOf(read).awsWriteUnits).toBe(0);

    const write = await createNodeRaw(server, { id: 'cost-write', parentId: 'wide' });
    okData(write);
    expectCostShape(write);
    expect(costOf(write).requests).toBeGreaterThanOrEqual(1);
    expect(costOf(write).writeUnits).toBeGreaterThan(0);

    const refused = await createNodeRaw(server, { id: 'cost-refused', parentId: 'no-such-parent' });
    expectError(refused, 'NOT_FOUND', {
      message: 'parent "no-such-parent" does not exist',
      details: { id: 'no-such-parent' },
    });
    expectCostShape(refused);
    expect(costOf(refused).writeUnits).toBe(0);

    const missing = await server.gql('{ node(id: "no-such-node") { id } }');
    expect(okData(missing)).toEqual({ node: null });
    expectCostShape(missing);
    expect(plannedRequests(missing)).toBe(budget.nodeLookup);
    // The nodes each answer holds.
    expect([read, write, refused, missing].map((r) => costOf(r).itemsReturned)).toEqual([1, 1, 0, 0]);
  });

  it('counts the nodes an answer holds as itemsReturned, beside the items read', async () => {
    const page = await server.gql(
      '{ node(id: "fan") { children(first: 3) { nodes { id } edges { node { id } } } parent { id } } }',
    );
    // The node, and its three children twice (nodes, and edges' node); no parent.
    expect(costOf(page).itemsReturned).toBe(7);
    const window = await server.gql(
      '{ node(id: "fan") { descendants(minDepth: 2, maxDepth: 2, first: 30) { nodes { id } } } }',
    );
    expect(okData(window).node.descendants.nodes).toHaveLength(25);
    expect(costOf(window).itemsReturned).toBe(26);
    expect(costOf(window).itemsRead).toBeGreaterThanOrEqual(26);
    const crumbs = await server.gql('{ nodes(ids: ["fan.1.1.1", "missing"]) { ancestors { id } } }');
    expect(costOf(crumbs).itemsReturned).toBe(1 + 3);
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
    expect(plannedRequests(response)).toBe(budget.nodeLookup);
    expect(costOf(response).writeUnits).toBe(0);
  });

  it('reports the requests a read made again because it took long, apart from the planned ones', async () => {
    slowRead.arm();
    const answer = server.gql('{ node(id: "fan.3") { id } }');
    await slowRead.reached;
    // Longer than a job's announce wait (ANNOUNCE_WAIT_MS): the read may have met the open jobs'
    // summary before a job started and the node after, so it reads both again.
    await new Promise((resolve) => setTimeout(resolve, ANNOUNCE_WAIT_MS + 50));
    slowRead.release();
    const response = await answer;
    expect(okData(response)).toEqual({ node: { id: 'fan.3' } });
    expect(costOf(response).repeatedRequests).toBe(budget.nodeLookup);
    expect(costOf(response).requests).toBe(2 * budget.nodeLookup);
    expect(plannedRequests(response)).toBe(budget.nodeLookup);
    // The node, read twice.
    expect(costOf(response).repeatedItemsRead).toBe(1);
    expect(costOf(response).itemsRead).toBe(2);
  });

  it('counts each request on its own, even when requests run in parallel', async () => {
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => server.gql(`{ node(id: "fan.${i % 5}") { id } }`)),
    );
    expect(responses.map((r) => plannedRequests(r))).toEqual(responses.map(() => budget.nodeLookup));
  });

  it('lists children in exactly the budgeted requests', async () => {
    const response = await server.gql('{ node(id: "fan.2") { children { nodes { id } } } }');
    // FAN was built with siblings created concurrently: their order is not known here.
    const ids = okData(response).node.children.nodes.map((n: { id: string }) => n.id);
    expect([...ids].sort()).toEqual([0, 1, 2, 3, 4].map((i) => `fan.2.${i}`));
    expect(plannedRequests(response)).toBe(budget.nodeWithChildren);
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
    expect(plannedRequests(response)).toBeLessThanOrEqual(budget.thirtyNodesWithParentsMax);
  });

  it('reads the ancestors of a node at depth 20 within budget', async () => {
    const response = await server.gql('{ node(id: "deep-20") { depth ancestors { id } } }');
    expect(okData(response)).toEqual({
      node: { depth: 20, ancestors: Array.from({ length: 20 }, (_, i) => ({ id: `deep-${i}` })) },
    });
    expect(plannedRequests(response)).toBe(budget.ancestorsAtDepth20Max);
  });

  it('reads descendants to depth 3 of a fan-out-5 tree within budget', async () => {
    const response = await server.gql(
      '{ node(id: "fan") { descendants(maxDepth: 3, first: 1000) { nodes { id depth } pageInfo { hasNextPage } } } }',
    );
    const { nodes, pageInfo } = okData(response).node.descendants;
    expect(pageInfo.hasNextPage).toBe(false);
    expect(nodes.map((n: { id: string }) => n.id).sort()).toEqual(specIds(FAN).slice(1).sort());
    expect(nodes).toHaveLength(155);
    expect(plannedRequests(response)).toBe(budget.descendantsFanOut5Depth3Max);
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
    expect(plannedRequests(response)).toBe(budget.descendantsOfAListOfFive);
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
    expect(plannedRequests(response)).toBe(budget.descendantsFirstPageMax);
  });
});
