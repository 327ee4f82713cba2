import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamo } from '../../../src/dynamodb/client.js';
import { loadTree } from '../../support/loadTree.js';
import { contractCostsOf } from '../../support/contractCosts.js';
import { COPY, DELETE, RESTORE } from '../../support/copyMutations.js';
import { jwtCaller, type Gql } from '../../support/jwtCaller.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type GraphQLResponse, type TestServer } from '../../support/server.js';
import { chain, subtreeShape, widest, withData } from '../../support/subtreeShape.js';
import { expectError, fullTree, getNode, okData } from '../../support/tree.js';

/**
 * Copies and restores at full scale (the long suite, `npm run test:long`): 2,041 nodes, past the
 * 1,000 an import keeps in its job record, copied, deleted and restored as jobs, at the write
 * costs the strategy declares; and nodes of the largest name and data, in 4-byte characters,
 * created, renamed, moved, deleted and restored. The server verifies the table when it closes.
 */

const SECRET = 'a-copy-secret-of-at-least-32-bytes-long';

describe.each(STRATEGIES_UNDER_TEST)('%s: copy and restore at scale', (strategy) => {
  let server: TestServer;
  let admin: Gql;

  beforeAll(async () => {
    server = await startTestServer({ strategy, env: { AUTH: 'jwt', JWT_SECRET: SECRET, MAX_TREE_DEPTH: '5' } });
    admin = await jwtCaller(server, SECRET, { sub: 'admin' });
    const { doc, client } = createDynamo({ endpoint: server.config.dynamodbEndpoint, region: server.config.region });
    try {
      await loadTree(doc, server.table, strategy, [
        withData(fullTree('big', [40, 50])), // 2,041 nodes
        // 30 nodes of the largest name and data, in 4-byte characters, at depth 4.
        chain(
          ['wide', 'wide.1', 'wide.2', 'wide.3'],
          Array.from({ length: 30 }, (_, i) => widest(`wide.3.${i}`)),
        ),
      ]);
    } finally {
      client.destroy();
    }
  });
  afterAll(() => server?.close());

  const run = async (query: string, variables: Record<string, unknown> = {}) =>
    okData<Record<string, unknown>>(await admin(query, variables));
  const view = () => ({ ...server, gql: admin });
  const shapeOf = (id: string) => subtreeShape(admin, id);

  it('copies 2,041 nodes as one job, then deletes and restores the copy whole, once', async () => {
    const costs = contractCostsOf(strategy).copies;
    // Exact, but for one item: a job rewrites the summary of the open jobs unless an earlier
    // job's announcement is still active (core/openJobs.ts), which depends on timing.
    const written = (response: GraphQLResponse) => {
      const items = response.body.extensions?.dynamodb?.itemsWritten as number;
      return (declared: number) => expect([declared, declared + 1]).toContain(items);
    };
    const copying = await admin(COPY, { input: { id: 'big', idPrefix: 'c2-' } });
    written(copying)(costs.itemsWrittenByCopy);
    const copied = okData<{ copySubtree: unknown }>(copying).copySubtree;
    expect(copied).toMatchObject({
      copiedCount: 2041,
      node: { id: 'c2-big', parentId: null },
      job: { kind: 'IMPORT' },
    });
    const source = await shapeOf('big');
    const made = await shapeOf('c2-big');
    expect(made.shape).toEqual(source.shape);
    expect(made.ids).toEqual(source.ids.map((id) => `c2-${id}`));

    const deleting = await admin(DELETE, { id: 'c2-big' });
    expect(okData(deleting).deleteNode).toEqual({ deletedCount: 2041 });
    written(deleting)(costs.itemsWrittenByDelete);
    expect(await getNode(view(), 'c2-big.39.49')).toBeNull();
    const deleted = (await run(`{ deletedNodes(first: 5) { nodes { id name parentId } } }`)) as {
      deletedNodes: { nodes: Array<{ id: string }> };
    };
    expect(deleted.deletedNodes.nodes[0]).toMatchObject({ id: 'c2-big', parentId: null });

    const restoring = await admin(RESTORE, { id: 'c2-big' });
    expect(okData(restoring).restoreNode).toEqual({ id: 'c2-big', parentId: null });
    written(restoring)(costs.itemsWrittenByRestore);
    const back = await shapeOf('c2-big');
    expect(back).toEqual(made);
    const after = (await run(`{ deletedNodes(first: 5) { nodes { id } } }`)) as {
      deletedNodes: { nodes: Array<{ id: string }> };
    };
    expect(after.deletedNodes.nodes.map((n) => n.id)).not.toContain('c2-big');
    expectError(await admin(RESTORE, { id: 'c2-big' }), 'NOT_FOUND', {
      message: 'deleted node "c2-big" does not exist',
    });
  });

  it('creates, renames, moves, deletes and restores nodes of the largest name and data in emoji', async () => {
    // Ten more under wide.3: each with its copies (its edge, its projection) in one request's transactions.
    const more = Array.from({ length: 10 }, (_, i) => widest(`wide.3.n${i}`));
    const created = await run(
      `mutation M($input: CreateNodesInput!) { createNodes(input: $input) { nodes { id name data } } }`,
      { input: { parentId: 'wide.3', nodes: more } },
    );
    expect(created.createNodes).toEqual({ nodes: more });
    // A rename and new data: its record carries the node twice, as it was and as it is.
    const renamed = widest('wide.3.0', '🌳');
    const update = `mutation U($id: ID!, $name: String, $data: JSONObject) {
      updateNode(id: $id, name: $name, data: $data) { id name data } }`;
    expect((await run(update, renamed)).updateNode).toEqual(renamed);
    const move = `mutation M($id: ID!, $to: ID) { reparent(id: $id, newParentId: $to) { id parentId } }`;
    expect((await run(move, { id: 'wide.3.1', to: 'wide.3.2' })).reparent).toEqual({
      id: 'wide.3.1',
      parentId: 'wide.3.2',
    });
    const before = await shapeOf('wide.3');
    expect(before.ids).toHaveLength(41);
    expect((await run(DELETE, { id: 'wide.3' })).deleteNode).toEqual({ deletedCount: 41 });
    expect((await run(RESTORE, { id: 'wide.3' })).restoreNode).toEqual({ id: 'wide.3', parentId: 'wide.2' });
    expect(await shapeOf('wide.3')).toEqual(before);
  });
});
