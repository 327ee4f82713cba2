/**
 * SCHEMA_PREFIX through the real server: the same answers at the same DynamoDB cost under the
 * renamed root fields and types, the same operation limits, and GraphiQL's examples renamed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plannedRequests, startTestServer, uniqueTable, type TestServer } from '../../support/server.js';
import { buildTree, expectError, fullTree, okData } from '../../support/tree.js';

const NESTED = (roots: string) =>
  `{ ${roots}(first: 5) { nodes { id children(first: 10) { nodes { id __typename ` +
  'children(first: 10) { nodes { id } pageInfo { hasNextPage } } } } } } }';

describe('SCHEMA_PREFIX=Tree', () => {
  let plain: TestServer;
  let tree: TestServer;

  beforeAll(async () => {
    const table = uniqueTable();
    plain = await startTestServer({ table, strategy: 'closure' });
    tree = await startTestServer({ table, strategy: 'closure', env: { SCHEMA_PREFIX: 'Tree' } });
    await buildTree(plain, fullTree('catalog', [4, 3]));
  });
  afterAll(async () => {
    await tree?.close();
    await plain?.close();
  });

  it('answers the renamed root fields as the plain ones, at the same DynamoDB cost (lookahead included)', async () => {
    const [before, after] = [await plain.gql(NESTED('roots')), await tree.gql(NESTED('treeRoots'))];
    const renamed = JSON.parse(JSON.stringify(okData(before).roots).replaceAll('"Node"', '"TreeNode"'));
    expect(okData(after).treeRoots).toEqual(renamed);
    expect(okData(after).treeRoots.nodes[0].children.nodes[0].__typename).toBe('TreeNode');
    expect(plannedRequests(after)).toBe(plannedRequests(before));
  });

  it('writes through the renamed mutations, and refuses the plain names', async () => {
    const created = okData(
      await tree.gql(
        'mutation { treeCreateNode(input: { id: "shelf", parentId: "catalog", name: "Shelf" }) { id depth } }',
      ),
    );
    expect(created.treeCreateNode).toEqual({ id: 'shelf', depth: 1 });
    const moved = okData(await tree.gql('mutation { treeReparent(id: "shelf", newParentId: "catalog.0") { depth } }'));
    expect(moved.treeReparent).toEqual({ depth: 2 });
    const plainName = await tree.gql('{ roots { nodes { id } } }');
    expect(plainName.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('counts the renamed lists in the operation limits as the plain ones', async () => {
    // 1,000 roots × 1,000 children × 1,000 children: over the node estimate's limit.
    const huge = (roots: string) =>
      `{ ${roots}(first: 1000) { nodes { children(first: 1000) { nodes { ` +
      'children(first: 1000) { nodes { id } } } } } } }';
    const refusal = { message: /operation may return up to 1001001000 nodes/ };
    expectError(await plain.gql(huge('roots')), 'QUERY_TOO_COMPLEX', refusal);
    expectError(await tree.gql(huge('treeRoots')), 'QUERY_TOO_COMPLEX', refusal);
  });

  it('opens GraphiQL on examples that use the renamed root fields', async () => {
    const page = await fetch(`${tree.url}/graphql`, { headers: { accept: 'text/html' } });
    const html = await page.text();
    expect(html).toContain('treeRoots(first: 10)');
    expect(html).not.toMatch(/\broots\(first: 10\)/);
  });
});
