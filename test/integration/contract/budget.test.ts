import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, STRATEGIES_UNDER_TEST, type GraphQLResponse, type TestServer } from '../../support/server.js';
import { buildTree, fullTree, okData, specIds } from '../../support/tree.js';

/**
 * The runtime budget of a query (MAX_OPERATION_REQUESTS, MAX_OPERATION_ITEMS_READ): an honest
 * nested query with default arguments runs; a query that goes over the budget on the tree it
 * meets stops there with QUERY_TOO_COMPLEX, naming the field and the limit, and answers no data
 * at all; mutations have no such budget.
 */
const TREE = fullTree('b', [3, 3, 3]); // 1 + 3 + 9 + 27 = 40 nodes

/** The children of `b` three levels down, with default arguments. */
const NESTED = '{ node(id: "b") { children { nodes { id children { nodes { id children { nodes { id } } } } } } } }';

const refusal = (response: GraphQLResponse) => {
  expect(response.status).toBe(400);
  expect(response.body.data ?? null, JSON.stringify(response.body)).toBeNull();
  expect(response.body.errors).toHaveLength(1);
  const [error] = response.body.errors!;
  expect(error!.extensions?.code).toBe('QUERY_TOO_COMPLEX');
  return { message: error!.message, cost: response.body.extensions!.dynamodb! };
};

describe.each(STRATEGIES_UNDER_TEST)('%s: the runtime budget of a query', (strategy) => {
  let roomy: TestServer;
  let tight: TestServer;
  let reading: TestServer;

  beforeAll(async () => {
    roomy = await startTestServer({ strategy });
    await buildTree(roomy, TREE, null, { ordered: false });
    tight = await startTestServer({ strategy, table: roomy.table, env: { MAX_OPERATION_REQUESTS: '4' } });
    reading = await startTestServer({ strategy, table: roomy.table, env: { MAX_OPERATION_ITEMS_READ: '30' } });
  });
  afterAll(async () => {
    await reading?.close();
    await tight?.close();
    await roomy?.close();
  });

  it('runs the nested children query three levels deep with default arguments', async () => {
    const response = await roomy.gql(NESTED);
    const node = okData(response).node;
    const third = node.children.nodes.flatMap((a: any) =>
      a.children.nodes.flatMap((b: any) => b.children.nodes.map((c: any) => c.id)),
    );
    expect(third.sort()).toEqual(
      specIds(TREE)
        .filter((id) => id.split('.').length === 4)
        .sort(),
    );
    expect(response.body.extensions?.dynamodb?.requests).toBeLessThanOrEqual(1000);
  });

  it('stops a query at its request budget: no call past it, no data, the field and the limit named', async () => {
    // The lookup, the children, then the descendants of each child: more than 4 requests on
    // this tree, under every strategy.
    const { message, cost } = refusal(
      await tight.gql('{ node(id: "b") { children { nodes { descendants { nodes { id } } } } } }'),
    );
    expect(cost.requests).toBe(4);
    expect(message).toMatch(/runtime budget of 4 DynamoDB requests \(MAX_OPERATION_REQUESTS\)/);
    expect(message).toMatch(/lower `first`/);
    expect(message).toMatch(/\(at node\.children\.nodes\.\d+\.descendants\)$/);
  });

  it('stops a query at its budget of items read', async () => {
    const { message, cost } = refusal(
      await reading.gql('{ node(id: "b") { descendants(first: 100) { nodes { id } } } }'),
    );
    expect(cost.itemsRead).toBeGreaterThan(30);
    expect(message).toMatch(/runtime budget of 30 items read from DynamoDB \(MAX_OPERATION_ITEMS_READ\)/);
    expect(message).toMatch(/\(at node\.descendants\)$/);
  });

  it('answers what fits the budget', async () => {
    const response = await tight.gql('{ node(id: "b.1") { id childCount children { nodes { id } } } }');
    const node = okData(response).node;
    expect(node.children.nodes.map((n: { id: string }) => n.id).sort()).toEqual(['b.1.0', 'b.1.1', 'b.1.2']);
    expect(response.body.extensions?.dynamodb?.requests).toBeLessThanOrEqual(4);
  });

  it('gives mutations no such budget', async () => {
    const moved = await tight.gql('mutation { reparent(id: "b.2", newParentId: "b.0.0.0") { id depth } }');
    expect(okData(moved).reparent).toEqual({ id: 'b.2', depth: 4 });
    expect(moved.body.extensions?.dynamodb?.requests).toBeGreaterThan(4);
    const deleted = await tight.gql('mutation { deleteNode(id: "b.0") { deletedCount } }');
    expect(okData(deleted).deleteNode).toEqual({ deletedCount: 26 });
  });
});
