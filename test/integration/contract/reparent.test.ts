import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import type { GraphQLResponse } from '../../support/server.js';
import { loadInto } from '../../support/loadTree.js';
import {
  childIds,
  expectConsistent,
  expectError,
  type ExpectedError,
  getNode,
  NODE_FIELDS,
  okData,
  rootIds,
  snapshot,
  type NodeView,
} from '../../support/tree.js';

const REPARENT = `mutation Move(
  $id: ID!, $newParentId: ID, $before: ID, $after: ID, $expectedVersion: Int, $expectedParentId: ID
) {
  reparent(
    id: $id, newParentId: $newParentId, before: $before, after: $after,
    expectedVersion: $expectedVersion, expectedParentId: $expectedParentId
  ) {
    ${NODE_FIELDS}
  }
}`;

interface Trees {
  r: string;
  a: string;
  a1: string;
  a11: string;
  a2: string;
  b: string;
  c: string;
  s: string;
  s1: string;
  s11: string;
}

describe.each(STRATEGIES_UNDER_TEST)('%s: reparent', (strategy) => {
  let server: TestServer;
  let family = 0;

  beforeAll(async () => {
    server = await startTestServer({ strategy });
  });
  afterAll(() => server?.close());

  const move = (variables: Record<string, unknown>): Promise<GraphQLResponse> => server.gql(REPARENT, variables);
  const moved = async (variables: Record<string, unknown>): Promise<NodeView> =>
    okData<{ reparent: NodeView }>(await move(variables)).reparent;

  // r ── a ── a1 ── a11        s ── s1 ── s11
  //   │    └─ a2
  //   ├─ b
  //   └─ c
  const freshTrees = async (): Promise<Trees> => {
    const n = ++family;
    const t: Trees = {
      r: `r${n}`,
      a: `r${n}-a`,
      a1: `r${n}-a1`,
      a11: `r${n}-a11`,
      a2: `r${n}-a2`,
      b: `r${n}-b`,
      c: `r${n}-c`,
      s: `s${n}`,
      s1: `s${n}-1`,
      s11: `s${n}-11`,
    };
    await loadInto(server, [
      {
        id: t.r,
        children: [
          { id: t.a, children: [{ id: t.a1, children: [{ id: t.a11 }] }, { id: t.a2 }] },
          { id: t.b },
          { id: t.c },
        ],
      },
      { id: t.s, children: [{ id: t.s1, children: [{ id: t.s11 }] }] },
    ]);
    return t;
  };

  /** id → [rootId, depth] for the subtree of `id`, self included. */
  const placement = async (id: string): Promise<Record<string, [string, number]>> => {
    const data = okData(
      await server.gql('query($id: ID!) { node(id: $id) { descendants(minDepth: 0) { nodes { id rootId depth } } } }', {
        id,
      }),
    );
    const nodes: Array<{ id: string; rootId: string; depth: number }> = data.node.descendants.nodes;
    return Object.fromEntries(nodes.map((n) => [n.id, [n.rootId, n.depth]]));
  };

  const childCounts = async (ids: string[]): Promise<number[]> => {
    const data = okData(await server.gql('query($ids: [ID!]!) { nodes(ids: $ids) { childCount } }', { ids }));
    return data.nodes.map((n: { childCount: number }) => n.childCount);
  };

  const expectRefused = async (
    variables: Record<string, unknown>,
    code: string,
    t: Trees,
    expected: ExpectedError,
  ): Promise<void> => {
    const before = await snapshot(server, [t.r, t.s]);
    expectError(await move(variables), code, expected);
    expect(await snapshot(server, [t.r, t.s])).toEqual(before);
  };

  it('moves a subtree within its tree', async () => {
    const t = await freshTrees();
    const result = await moved({ id: t.a1, newParentId: t.b });
    expect(result).toMatchObject({ id: t.a1, parentId: t.b, rootId: t.r, depth: 2, childCount: 1, version: 2 });
    expect(await placement(t.a1)).toEqual({ [t.a1]: [t.r, 2], [t.a11]: [t.r, 3] });
    expect(await childIds(server, t.a)).toEqual([t.a2]);
    expect(await childIds(server, t.b)).toEqual([t.a1]);
    expect(await childCounts([t.a, t.b, t.r])).toEqual([1, 1, 3]);
    const data = okData(await server.gql(`{ node(id: "${t.a11}") { ancestors { id } parent { id } } }`));
    expect(data.node).toEqual({ ancestors: [{ id: t.r }, { id: t.b }, { id: t.a1 }], parent: { id: t.a1 } });
  });

  it('moves a subtree into another tree: rootId and depth follow for the whole subtree', async () => {
    const t = await freshTrees();
    await moved({ id: t.a, newParentId: t.s1 });
    expect(await placement(t.a)).toEqual({
      [t.a]: [t.s, 2],
      [t.a1]: [t.s, 3],
      [t.a11]: [t.s, 4],
      [t.a2]: [t.s, 3],
    });
    expect(await childIds(server, t.r)).toEqual([t.b, t.c]);
    expect(await childIds(server, t.s1)).toEqual([t.s11, t.a]);
    expect(await childCounts([t.r, t.s1, t.a])).toEqual([2, 2, 2]);
    expect(Object.keys(await placement(t.r)).sort()).toEqual([t.r, t.b, t.c].sort());
    const data = okData(await server.gql(`{ node(id: "${t.a11}") { ancestors { id } } }`));
    expect(data.node.ancestors.map((n: { id: string }) => n.id)).toEqual([t.s, t.s1, t.a, t.a1]);
  });

  it('moves a whole tree under another tree', async () => {
    const t = await freshTrees();
    await moved({ id: t.s, newParentId: t.c });
    expect(await placement(t.s)).toEqual({ [t.s]: [t.r, 2], [t.s1]: [t.r, 3], [t.s11]: [t.r, 4] });
    expect(await rootIds(server)).not.toContain(t.s);
    expect(await childCounts([t.c])).toEqual([1]);
  });

  it('makes a node a root with newParentId null or absent', async () => {
    const t = await freshTrees();
    const result = await moved({ id: t.a, newParentId: null });
    expect(result).toMatchObject({ id: t.a, parentId: null, rootId: t.a, depth: 0, version: 2 });
    expect(await placement(t.a)).toEqual({ [t.a]: [t.a, 0], [t.a1]: [t.a, 1], [t.a11]: [t.a, 2], [t.a2]: [t.a, 1] });
    await moved({ id: t.s1 });
    expect(await placement(t.s1)).toEqual({ [t.s1]: [t.s1, 0], [t.s11]: [t.s1, 1] });
    expect((await rootIds(server)).slice(-2)).toEqual([t.a, t.s1]);
    expect(await childCounts([t.r, t.s])).toEqual([2, 0]);
    expect(await getNode(server, t.a)).toMatchObject({ parentId: null });
  });

  it('reorders among the same siblings with before/after', async () => {
    const t = await freshTrees();
    expect(await moved({ id: t.c, newParentId: t.r, before: t.a })).toMatchObject({
      parentId: t.r,
      depth: 1,
      version: 2,
    });
    expect(await childIds(server, t.r)).toEqual([t.c, t.a, t.b]);
    await moved({ id: t.c, newParentId: t.r, after: t.a });
    expect(await childIds(server, t.r)).toEqual([t.a, t.c, t.b]);
    await moved({ id: t.a, newParentId: t.r, after: t.b });
    expect(await childIds(server, t.r)).toEqual([t.c, t.b, t.a]);
    await moved({ id: t.a, newParentId: t.r, after: t.c, before: t.b });
    expect(await childIds(server, t.r)).toEqual([t.c, t.a, t.b]);
    expect(await childCounts([t.r])).toEqual([3]);
    expect(await getNode(server, t.a)).toMatchObject({ version: 3, depth: 1, rootId: t.r });
    expect(await placement(t.a)).toEqual({ [t.a]: [t.r, 1], [t.a1]: [t.r, 2], [t.a11]: [t.r, 3], [t.a2]: [t.r, 2] });
  });

  it('places a moved node before or after a sibling under its new parent', async () => {
    const t = await freshTrees();
    await moved({ id: t.b, newParentId: t.s, before: t.s1 });
    await moved({ id: t.c, newParentId: t.s, after: t.b });
    expect(await childIds(server, t.s)).toEqual([t.b, t.c, t.s1]);
    expect(await childIds(server, t.r)).toEqual([t.a]);
    expect(await childCounts([t.r, t.s])).toEqual([1, 3]);
  });

  it('refuses before/after that is not a sibling under the new parent with BAD_USER_INPUT', async () => {
    const t = await freshTrees();
    await expectRefused({ id: t.a1, newParentId: t.b, before: t.a2 }, 'BAD_USER_INPUT', t, {
      message: `before "${t.a2}" is not a child of "${t.b}"`,
      details: { field: 'before' },
    });
    await expectRefused({ id: t.a1, newParentId: t.b, after: t.s11 }, 'BAD_USER_INPUT', t, {
      message: `after "${t.s11}" is not a child of "${t.b}"`,
      details: { field: 'after' },
    });
    await expectRefused({ id: t.c, newParentId: t.r, before: t.a2 }, 'BAD_USER_INPUT', t, {
      message: `before "${t.a2}" is not a child of "${t.r}"`,
      details: { field: 'before' },
    });
    await expectRefused({ id: t.c, newParentId: null, after: t.a }, 'BAD_USER_INPUT', t, {
      message: `after "${t.a}" is not a root`,
      details: { field: 'after' },
    });
    await expectRefused({ id: t.c, newParentId: t.r, after: t.b, before: t.a }, 'BAD_USER_INPUT', t, {
      message: `after "${t.b}" and before "${t.a}" are not adjacent siblings`,
      details: { field: 'before' },
    });
  });

  it('refuses a missing node, new parent or sibling with NOT_FOUND', async () => {
    const t = await freshTrees();
    await expectRefused({ id: t.a, newParentId: 'no-such-parent' }, 'NOT_FOUND', t, {
      message: 'new parent "no-such-parent" does not exist',
      details: { id: 'no-such-parent' },
    });
    await expectRefused({ id: 'no-such-node', newParentId: t.b }, 'NOT_FOUND', t, {
      message: 'node "no-such-node" does not exist',
      details: { id: 'no-such-node' },
    });
    await expectRefused({ id: t.a, newParentId: t.s, before: 'no-such-sibling' }, 'NOT_FOUND', t, {
      message: 'before sibling "no-such-sibling" does not exist',
      details: { id: 'no-such-sibling' },
    });
    expect(await getNode(server, 'no-such-parent')).toBeNull();
  });

  it('refuses a move under the node itself or one of its descendants with CYCLE', async () => {
    const t = await freshTrees();
    await expectRefused({ id: t.a, newParentId: t.a }, 'CYCLE', t, { message: `cannot move "${t.a}" under itself` });
    await expectRefused({ id: t.a, newParentId: t.a1 }, 'CYCLE', t, {
      message: `cannot move "${t.a}" under its own descendant "${t.a1}"`,
    });
    await expectRefused({ id: t.a, newParentId: t.a11 }, 'CYCLE', t, {
      message: `cannot move "${t.a}" under its own descendant "${t.a11}"`,
    });
    await expectRefused({ id: t.r, newParentId: t.a11 }, 'CYCLE', t, {
      message: `cannot move "${t.r}" under its own descendant "${t.a11}"`,
    });
    await expectRefused({ id: t.s, newParentId: t.s11 }, 'CYCLE', t, {
      message: `cannot move "${t.s}" under its own descendant "${t.s11}"`,
    });
  });

  it('refuses a stale expectedVersion with VERSION_CONFLICT, accepts the current one', async () => {
    const t = await freshTrees();
    await moved({ id: t.a1, newParentId: t.b, expectedVersion: 1 });
    await expectRefused({ id: t.a1, newParentId: t.c, expectedVersion: 1 }, 'VERSION_CONFLICT', t, {
      message: `node "${t.a1}" is at version 2, expected 1`,
      details: { currentVersion: 2 },
    });
    await expectRefused({ id: t.a1, newParentId: null, expectedVersion: 3 }, 'VERSION_CONFLICT', t, {
      message: `node "${t.a1}" is at version 2, expected 3`,
      details: { currentVersion: 2 },
    });
    expect(await moved({ id: t.a1, newParentId: t.c, expectedVersion: 2 })).toMatchObject({
      parentId: t.c,
      version: 3,
    });
  });

  it('refuses a node no longer under expectedParentId with PARENT_CONFLICT, naming its parent', async () => {
    const t = await freshTrees();
    await moved({ id: t.a1, newParentId: t.b, expectedParentId: t.a });
    await expectRefused({ id: t.a1, newParentId: t.c, expectedParentId: t.a }, 'PARENT_CONFLICT', t, {
      message: `node "${t.a1}" is under "${t.b}", expected under "${t.a}"`,
      details: { currentParentId: t.b },
    });
    // A reorder among the same siblings is checked too; '' expects a root.
    await expectRefused({ id: t.a1, newParentId: t.b, expectedParentId: '' }, 'PARENT_CONFLICT', t, {
      message: `node "${t.a1}" is under "${t.b}", expected a root`,
      details: { currentParentId: t.b },
    });
    await expectRefused({ id: t.s, newParentId: t.c, expectedParentId: t.r }, 'PARENT_CONFLICT', t, {
      message: `node "${t.s}" is a root, expected under "${t.r}"`,
      details: { currentParentId: null },
    });
    await expectRefused({ id: t.a1, newParentId: t.c, expectedParentId: '#' }, 'BAD_USER_INPUT', t, {
      message: /^expectedParentId must match/,
      details: { field: 'expectedParentId' },
    });
    expect(await moved({ id: t.a1, newParentId: null, expectedParentId: t.b })).toMatchObject({ parentId: null });
    expect(await moved({ id: t.a1, newParentId: t.c, expectedParentId: '' })).toMatchObject({ parentId: t.c });
  });

  it('lets at most one of two crossing moves commit, and never makes a cycle', async () => {
    for (let round = 0; round < 3; round++) {
      const t = await freshTrees();
      const answers = await Promise.all([move({ id: t.b, newParentId: t.c }), move({ id: t.c, newParentId: t.b })]);
      const codes = answers.map((answer) => answer.body.errors?.[0]?.extensions?.code ?? 'OK');
      expect(codes.filter((code) => code === 'OK').length, JSON.stringify(codes)).toBeLessThanOrEqual(1);
      for (const code of codes) expect(['OK', 'CYCLE', 'CONFLICT']).toContain(code);
      expect((await expectConsistent(server, t.r)).sort()).toEqual([t.r, t.a, t.a1, t.a11, t.a2, t.b, t.c].sort());
    }
  });

  it('keeps the tree consistent under concurrent moves of different nodes', async () => {
    const t = await freshTrees();
    const answers = await Promise.all([
      move({ id: t.a1, newParentId: t.c }),
      move({ id: t.a2, newParentId: t.c }),
      move({ id: t.b, newParentId: t.a11 }),
      move({ id: t.s1, newParentId: t.a }),
    ]);
    for (const answer of answers) expect(answer.body.errors?.map((e) => e.extensions?.code) ?? []).toEqual([]);
    expect((await expectConsistent(server, t.r)).length).toBe(9);
    expect(await childCounts([t.a, t.c, t.s])).toEqual([1, 2, 0]);
  });
});
