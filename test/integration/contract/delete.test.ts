import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInto } from '../../support/loadTree.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import type { GraphQLResponse } from '../../support/server.js';
import {
  buildTree,
  childIds,
  createNodeRaw,
  expectError,
  getNode,
  okData,
  rootIds,
  snapshot,
  specIds,
  type TreeSpec,
} from '../../support/tree.js';

const DELETE = `mutation Delete($id: ID!, $expectedVersion: Int, $expectedParentId: ID) {
  deleteNode(id: $id, expectedVersion: $expectedVersion, expectedParentId: $expectedParentId) { deletedCount }
}`;

describe.each(STRATEGIES_UNDER_TEST)('%s: deleteNode', (strategy) => {
  let server: TestServer;
  let family = 0;

  beforeAll(async () => {
    server = await startTestServer({ strategy });
  });
  afterAll(() => server?.close());

  const remove = (variables: Record<string, unknown>): Promise<GraphQLResponse> => server.gql(DELETE, variables);

  /** Which of `ids` still exist, as answered by nodes(ids:). */
  const existing = async (ids: string[]): Promise<string[]> => {
    const data = okData(await server.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids }));
    const nodes: Array<{ id: string } | null> = data.nodes;
    expect(nodes).toHaveLength(ids.length);
    return nodes.filter((n): n is { id: string } => n !== null).map((n) => n.id);
  };

  // d ── a ── a1 ── a11
  //   │    └─ a2
  //   ├─ b
  //   └─ c
  const freshTree = async (): Promise<{
    spec: TreeSpec;
    d: string;
    a: string;
    a1: string;
    a11: string;
    a2: string;
    b: string;
    c: string;
  }> => {
    const d = `d${++family}`;
    const ids = { d, a: `${d}-a`, a1: `${d}-a1`, a11: `${d}-a11`, a2: `${d}-a2`, b: `${d}-b`, c: `${d}-c` };
    const spec: TreeSpec = {
      id: ids.d,
      children: [
        { id: ids.a, children: [{ id: ids.a1, children: [{ id: ids.a11 }] }, { id: ids.a2 }] },
        { id: ids.b },
        { id: ids.c },
      ],
    };
    await buildTree(server, spec);
    return { spec, ...ids };
  };

  it('deletes a whole subtree and answers the exact count', async () => {
    const t = await freshTree();
    expect(okData(await remove({ id: t.a }))).toEqual({ deleteNode: { deletedCount: 4 } });
    expect(await existing([t.a, t.a1, t.a11, t.a2])).toEqual([]);
    expect(await getNode(server, t.a11)).toBeNull();
    expect(await existing(specIds(t.spec))).toEqual([t.d, t.b, t.c]);
    expect(await getNode(server, t.d)).toMatchObject({ childCount: 2 });
    expect(await childIds(server, t.d)).toEqual([t.b, t.c]);
    const data = okData(await server.gql(`{ node(id: "${t.d}") { descendants(minDepth: 0) { nodes { id } } } }`));
    expect(data.node.descendants.nodes.map((n: { id: string }) => n.id).sort()).toEqual([t.d, t.b, t.c].sort());
  });

  it('deletes a leaf', async () => {
    const t = await freshTree();
    expect(okData(await remove({ id: t.a11 }))).toEqual({ deleteNode: { deletedCount: 1 } });
    expect(await getNode(server, t.a1)).toMatchObject({ childCount: 0 });
    expect(await childIds(server, t.a1)).toEqual([]);
    expect(await existing(specIds(t.spec))).toEqual([t.d, t.a, t.a1, t.a2, t.b, t.c]);
  });

  it('deletes a root with its tree and drops it from the roots', async () => {
    const t = await freshTree();
    const others = await freshTree();
    expect(okData(await remove({ id: t.d }))).toEqual({ deleteNode: { deletedCount: 7 } });
    expect(await existing(specIds(t.spec))).toEqual([]);
    const roots = await rootIds(server);
    expect(roots).not.toContain(t.d);
    expect(roots).toContain(others.d);
    expect(await existing(specIds(others.spec))).toEqual(specIds(others.spec));
  });

  it('leaves nothing behind: the ids can be created again', async () => {
    const t = await freshTree();
    okData(await remove({ id: t.a }));
    expectError(await createNodeRaw(server, { id: 'late-child', parentId: t.a1 }), 'NOT_FOUND', {
      message: 'parent "d5-a1" does not exist',
      details: { id: 'd5-a1' },
    });
    const again = okData(await createNodeRaw(server, { id: t.a1, parentId: t.b }));
    expect(again.createNode).toMatchObject({ id: t.a1, parentId: t.b, childCount: 0, version: 1, depth: 2 });
    expect(await childIds(server, t.a1)).toEqual([]);
  });

  it('deletes a subtree bigger than one transaction', async () => {
    const d = `big${++family}`;
    // 1 + 4 + 4 * 29 = 121 nodes under `big`, whose sibling survives.
    const big: TreeSpec = {
      id: `${d}-big`,
      children: Array.from({ length: 4 }, (_, i) => ({
        id: `${d}-big-${i}`,
        children: Array.from({ length: 29 }, (_, j) => ({ id: `${d}-big-${i}-${j}` })),
      })),
    };
    const spec: TreeSpec = { id: d, children: [{ id: `${d}-keep` }, big] };
    // Written as items: 116 concurrent creates in one tree would only test their own contention.
    await loadInto(server, [spec]);
    const bigIds = specIds(big);
    expect(bigIds).toHaveLength(121);
    expect(okData(await remove({ id: big.id }))).toEqual({ deleteNode: { deletedCount: 121 } });
    expect(await existing(bigIds)).toEqual([]);
    expect(await getNode(server, d)).toMatchObject({ childCount: 1 });
    expect(await childIds(server, d)).toEqual([`${d}-keep`]);
    const data = okData(await server.gql(`{ node(id: "${d}") { descendants { nodes { id } } } }`));
    expect(data.node.descendants.nodes).toEqual([{ id: `${d}-keep` }]);
  });

  it('refuses a stale expectedVersion with VERSION_CONFLICT, accepts the current one', async () => {
    const t = await freshTree();
    okData(await server.gql(`mutation { updateNode(id: "${t.a}", name: "renamed") { version } }`));
    const before = await snapshot(server, [t.d]);
    expectError(await remove({ id: t.a, expectedVersion: 1 }), 'VERSION_CONFLICT', {
      message: `node "${t.a}" is at version 2, expected 1`,
      details: { currentVersion: 2 },
    });
    expect(await snapshot(server, [t.d])).toEqual(before);
    expect(okData(await remove({ id: t.a, expectedVersion: 2 }))).toEqual({ deleteNode: { deletedCount: 4 } });
  });

  it('refuses a node no longer under expectedParentId with PARENT_CONFLICT, naming its parent', async () => {
    const t = await freshTree();
    const before = await snapshot(server, [t.d]);
    expectError(await remove({ id: t.a1, expectedParentId: t.b }), 'PARENT_CONFLICT', {
      message: `node "${t.a1}" is under "${t.a}", expected under "${t.b}"`,
      details: { currentParentId: t.a },
    });
    expectError(await remove({ id: t.d, expectedParentId: t.a }), 'PARENT_CONFLICT', {
      message: `node "${t.d}" is a root, expected under "${t.a}"`,
      details: { currentParentId: null },
    });
    expectError(await remove({ id: t.a, expectedParentId: '' }), 'PARENT_CONFLICT', {
      message: `node "${t.a}" is under "${t.d}", expected a root`,
      details: { currentParentId: t.d },
    });
    expectError(await remove({ id: t.a, expectedParentId: 'not an id!' }), 'BAD_USER_INPUT', {
      message: /^expectedParentId must match/,
      details: { field: 'expectedParentId' },
    });
    expect(await snapshot(server, [t.d])).toEqual(before);
    expect(okData(await remove({ id: t.a1, expectedParentId: t.a }))).toEqual({ deleteNode: { deletedCount: 2 } });
    expect(okData(await remove({ id: t.d, expectedParentId: '' }))).toEqual({ deleteNode: { deletedCount: 5 } });
  });

  it('refuses a missing node with NOT_FOUND, including one already deleted', async () => {
    const t = await freshTree();
    okData(await remove({ id: t.b }));
    const before = await snapshot(server, [t.d]);
    expectError(await remove({ id: t.b }), 'NOT_FOUND', {
      message: `node "${t.b}" does not exist`,
      details: { id: t.b },
    });
    expectError(await remove({ id: 'no-such-node' }), 'NOT_FOUND', {
      message: 'node "no-such-node" does not exist',
      details: { id: 'no-such-node' },
    });
    expect(await snapshot(server, [t.d])).toEqual(before);
  });
});
