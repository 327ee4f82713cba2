import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { buildTree, childIds, createNode, getNode, okData } from '../../support/tree.js';

/** Two server processes on one table: every answer reflects every earlier write, from either. */
describe.each(STRATEGIES_UNDER_TEST)('%s: two servers on one table', (strategy) => {
  let one: TestServer;
  let two: TestServer;

  beforeAll(async () => {
    one = await startTestServer({ strategy });
    two = await startTestServer({ strategy, table: one.table });
    await buildTree(one, {
      id: 'x',
      children: [{ id: 'x-a', children: [{ id: 'x-a1' }] }, { id: 'x-b' }, { id: 'x-c' }],
    });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('reads on one server what the other just wrote', async () => {
    await createNode(one, { id: 'x-d', parentId: 'x', data: { from: 'one' } });
    expect(await getNode(two, 'x-d')).toMatchObject({ parentId: 'x', rootId: 'x', depth: 1, data: { from: 'one' } });
    expect(await childIds(two, 'x')).toEqual(['x-a', 'x-b', 'x-c', 'x-d']);

    okData(await two.gql('mutation { reparent(id: "x-a", newParentId: "x-d") { id } }'));
    expect(await childIds(one, 'x')).toEqual(['x-b', 'x-c', 'x-d']);
    expect(await getNode(one, 'x-a1')).toMatchObject({ depth: 3, rootId: 'x' });

    okData(await one.gql('mutation { updateNode(id: "x-b", name: "renamed") { id } }'));
    expect(await getNode(two, 'x-b')).toMatchObject({ name: 'renamed', version: 2 });

    expect(okData(await two.gql('mutation { deleteNode(id: "x-d") { deletedCount } }'))).toEqual({
      deleteNode: { deletedCount: 3 },
    });
    expect(await getNode(one, 'x-a1')).toBeNull();
    expect(await getNode(one, 'x')).toMatchObject({ childCount: 2 });
  });

  it('applies one of two concurrent moves expecting one parent; the other gets PARENT_CONFLICT', async () => {
    for (let round = 0; round < 2; round++) {
      const p = `pc${round}`;
      await buildTree(one, { id: p, children: [{ id: `${p}-a`, children: [{ id: `${p}-m` }] }, { id: `${p}-b` }] });
      const move = (server: TestServer, to: string) =>
        server.gql(
          'mutation($id: ID!, $to: ID, $from: ID) { ' +
            'reparent(id: $id, newParentId: $to, expectedParentId: $from) { parentId } }',
          {
            id: `${p}-m`,
            to,
            from: `${p}-a`,
          },
        );
      const answers = await Promise.all([move(one, `${p}-b`), move(two, p)]);
      const won = answers.findIndex((answer) => !answer.body.errors);
      expect(won).toBeGreaterThanOrEqual(0);
      const winner = won === 0 ? `${p}-b` : p;
      expect(answers[won]!.body.data!.reparent).toEqual({ parentId: winner });
      expect(answers[1 - won]!.body.errors?.[0]?.extensions).toMatchObject({
        code: 'PARENT_CONFLICT',
        currentParentId: winner,
      });
      expect(await getNode(one, `${p}-m`)).toMatchObject({ parentId: winner });
      // A delete and a move expecting the same parent: one applies, the other finds it gone or moved.
      const [deleted, moved] = await Promise.all([
        one.gql('mutation($id: ID!, $from: ID) { deleteNode(id: $id, expectedParentId: $from) { deletedCount } }', {
          id: `${p}-m`,
          from: winner,
        }),
        two.gql(
          'mutation($id: ID!, $from: ID) { reparent(id: $id, newParentId: null, expectedParentId: $from) { id } }',
          {
            id: `${p}-m`,
            from: winner,
          },
        ),
      ]);
      const codes = [deleted, moved].map((answer) => answer.body.errors?.[0]?.extensions?.code ?? 'OK');
      expect([
        ['OK', 'NOT_FOUND'],
        ['PARENT_CONFLICT', 'OK'],
      ]).toContainEqual(codes);
      expect(await getNode(two, `${p}-m`)).toEqual(
        codes[0] === 'OK' ? null : expect.objectContaining({ parentId: null }),
      );
      okData(await one.gql(`mutation { deleteNode(id: "${p}") { deletedCount } }`));
      if (codes[0] !== 'OK') okData(await one.gql(`mutation { deleteNode(id: "${p}-m") { deletedCount } }`));
    }
  });

  it('continues on one server a page that the other started', async () => {
    const query =
      'query($after: String) { node(id: "x") { ' +
      'children(first: 1, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } } }';
    const first = okData(await one.gql(query)).node.children;
    expect(first.nodes).toEqual([{ id: 'x-b' }]);
    const second = okData(await two.gql(query, { after: first.pageInfo.endCursor })).node.children;
    expect(second).toMatchObject({ nodes: [{ id: 'x-c' }], pageInfo: { hasNextPage: false } });
  });
});
