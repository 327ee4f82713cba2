import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preorderOf } from '../../support/invariants.js';
import { contractCostsOf } from '../../support/contractCosts.js';
import {
  plannedRequests,
  startTestServer,
  STRATEGIES_UNDER_TEST,
  type GraphQLResponse,
  type TestServer,
} from '../../support/server.js';
import {
  buildTree,
  CONNECTION_FIELDS,
  expectError,
  forgedCursorRefusal,
  forgedCursors,
  fullTree,
  okData,
  type PageView,
  type TreeSpec,
} from '../../support/tree.js';
import { traitsOf } from '../../support/traits.js';

const PREORDER = `query($id: ID!, $minDepth: Int, $maxDepth: Int, $first: Int, $after: String) {
  node(id: $id) {
    descendants(minDepth: $minDepth, maxDepth: $maxDepth, first: $first, after: $after, order: PREORDER) {
      ${CONNECTION_FIELDS}
    }
  }
}`;
const BY_DEPTH = `query($id: ID!, $first: Int, $after: String) {
  node(id: $id) { descendants(first: $first, after: $after) { ${CONNECTION_FIELDS} } }
}`;

// 4 + 12 + 36 = 52 descendants of `doc`.
const SPEC = fullTree('doc', [4, 3, 3]);

/** Children in sibling order, by the spec, as the tree is built (each child appended last). */
function childrenIn(spec: TreeSpec): (id: string) => string[] {
  const kids = new Map<string, string[]>();
  const walk = (node: TreeSpec) => {
    kids.set(
      node.id,
      (node.children ?? []).map((c) => c.id),
    );
    for (const child of node.children ?? []) walk(child);
  };
  walk(spec);
  return (id) => kids.get(id) ?? [];
}

interface Window {
  minDepth?: number;
  maxDepth?: number | null;
}

const inWindow = (
  nodes: Array<{ id: string; depth: number }>,
  base: number,
  { minDepth = 1, maxDepth = null }: Window,
) => nodes.filter(({ depth }) => depth - base >= minDepth && (maxDepth === null || depth - base <= maxDepth));

describe.each(STRATEGIES_UNDER_TEST)('%s: descendants in document order (PREORDER)', (strategy) => {
  let server: TestServer;
  let kids: (id: string) => string[];

  beforeAll(async () => {
    server = await startTestServer({ strategy });
    await buildTree(server, SPEC);
    // Sibling order is positions, not ids or creation order: doc.0 goes last among its siblings.
    okData(await server.gql('mutation { reparent(id: "doc.0", newParentId: "doc", after: "doc.3") { id } }'));
    const built = childrenIn(SPEC);
    kids = (id) => (id === 'doc' ? ['doc.1', 'doc.2', 'doc.3', 'doc.0'] : built(id));
  }, 120_000);
  afterAll(() => server?.close());

  const page = async (id: string, window: Window, first: number, after: string | null): Promise<PageView> =>
    okData(await server.gql(PREORDER, { id, ...window, first, after })).node.descendants;

  /** Every page to the end, each page's shape checked; the nodes in order. */
  const pageAll = async (id: string, window: Window, first: number): Promise<Array<{ id: string; depth: number }>> => {
    const nodes: Array<{ id: string; depth: number }> = [];
    let after: string | null = null;
    for (let round = 0; round < 200; round++) {
      const current = await page(id, window, first, after);
      expect(current.nodes.length).toBeLessThanOrEqual(first);
      expect(current.edges.map((e) => e.node.id)).toEqual(current.nodes.map((n) => n.id));
      expect(current.pageInfo.endCursor).toBe(current.edges.at(-1)?.cursor ?? null);
      nodes.push(...(current.nodes as Array<{ id: string; depth: number }>));
      if (!current.pageInfo.hasNextPage) return nodes;
      expect(current.nodes).toHaveLength(first);
      after = current.pageInfo.endCursor;
    }
    throw new Error('paging did not end');
  };

  it('answers the subtree in document order, siblings in sibling order, with absolute depths', async () => {
    const whole = await page('doc', {}, 1000, null);
    expect(whole.pageInfo.hasNextPage).toBe(false);
    const expected = preorderOf('doc', 0, kids);
    expect(expected).toHaveLength(52);
    expect(whole.nodes).toEqual(expected);
    expect(whole.nodes.slice(0, 6).map((n: { id: string }) => n.id)).toEqual([
      'doc.1',
      'doc.1.0',
      'doc.1.0.0',
      'doc.1.0.1',
      'doc.1.0.2',
      'doc.1.1',
    ]);
    expect(whole.nodes.at(-1)).toEqual({ id: 'doc.0.2.2', depth: 3 });
  });

  it.each([1, 5, 13, 52])('pages the subtree with first: %i, none lost or repeated', async (first) => {
    expect(await pageAll('doc', {}, first)).toEqual(preorderOf('doc', 0, kids));
  });

  it.each<[Window, number]>([
    [{ minDepth: 0 }, 7],
    [{ minDepth: 0, maxDepth: 1 }, 2],
    [{ minDepth: 2, maxDepth: 2 }, 5],
    [{ minDepth: 3 }, 10],
    [{ maxDepth: 2 }, 4],
    [{ minDepth: 4 }, 3],
  ])('pages the window %j with first: %i', async (window, first) => {
    const all = [{ id: 'doc', depth: 0 }, ...preorderOf('doc', 0, kids)];
    expect(await pageAll('doc', window, first)).toEqual(inWindow(all, 0, window));
  });

  it('pages an inner node with its own depths, the cursor resuming across levels', async () => {
    const expected = preorderOf('doc.2', 1, kids);
    expect(await pageAll('doc.2', {}, 4)).toEqual(expected);
    expect(await pageAll('doc.2.1.0', { minDepth: 0 }, 1)).toEqual([{ id: 'doc.2.1.0', depth: 3 }]);
  });

  it('refuses a cursor of another order, node or window, and forged ones, with BAD_USER_INPUT', async () => {
    const preorder = (await page('doc', {}, 3, null)).pageInfo.endCursor!;
    const byDepth = okData(await server.gql(BY_DEPTH, { id: 'doc', first: 3 })).node.descendants.pageInfo.endCursor;
    expectError(await server.gql(PREORDER, { id: 'doc', first: 3, after: byDepth }), 'BAD_USER_INPUT', {
      message: 'the cursor is not one of this list of descendants',
    });
    expectError(await server.gql(BY_DEPTH, { id: 'doc', first: 3, after: preorder }), 'BAD_USER_INPUT', {
      message: 'the cursor is not one of this list of descendants',
    });
    expectError(await server.gql(PREORDER, { id: 'doc.1', first: 3, after: preorder }), 'BAD_USER_INPUT', {
      message: 'the cursor is not one of this list of descendants',
    });
    expectError(await server.gql(PREORDER, { id: 'doc', maxDepth: 2, first: 3, after: preorder }), 'BAD_USER_INPUT', {
      message: 'the cursor is not one of this list of descendants',
    });
    for (const after of forgedCursors(preorder)) {
      const refused = await server.gql(PREORDER, { id: 'doc', first: 3, after });
      expectError(refused, 'BAD_USER_INPUT', forgedCursorRefusal(after));
    }
    expect((await page('doc', {}, 2, preorder)).nodes.map((n: { id: string }) => n.id)).toEqual([
      'doc.1.0.1',
      'doc.1.0.2',
    ]);
  });

  it('resumes after the place a cursor names, whatever changed in the tree meanwhile', async () => {
    const tree = await startTestServer({ strategy });
    try {
      await buildTree(tree, fullTree('t', [3, 2]));
      const first = await okData(await tree.gql(PREORDER, { id: 't', first: 2 })).node.descendants;
      expect(first.nodes.map((n: { id: string }) => n.id)).toEqual(['t.0', 't.0.0']);
      // The cursor's node leaves; the next page goes on after its old place among its siblings.
      okData(await tree.gql('mutation { reparent(id: "t.0.0", newParentId: "t.2") { id } }'));
      const next = okData(await tree.gql(PREORDER, { id: 't', first: 100, after: first.pageInfo.endCursor })).node
        .descendants;
      expect(next.nodes.map((n: { id: string }) => n.id)).toEqual([
        't.0.1',
        't.1',
        't.1.0',
        't.1.1',
        't.2',
        't.2.0',
        't.2.1',
        't.0.0',
      ]);
    } finally {
      await tree.close();
    }
  });

  it('reads a Query per parent the walk goes through, a Query per range under nested-set', async () => {
    const cost = async (variables: Record<string, unknown>) => {
      const response = await server.gql(PREORDER, { id: 'doc', ...variables });
      okData(response);
      return response.body.extensions?.dynamodb?.requests;
    };
    // As each strategy's folder declares them (`contractCosts.ts`, `preorder`).
    const expected = contractCostsOf(strategy).preorder;
    expect(await cost({ first: 1000 })).toBe(expected.whole);
    expect(await cost({ first: 1000, maxDepth: 1 })).toBe(expected.depthOne);
    expect(await cost({ first: 5 })).toBe(expected.firstFive);
    expect(await cost({ id: 'doc.1', first: 1000 })).toBe(expected.branch);
    if (!traitsOf(strategy).preorderFromProjection) return;
    // Below a node of depth 1, every page is one Query of its range, cursor or not.
    let after: string | null = null;
    for (let i = 0; i < 3; i++) {
      const response: GraphQLResponse = await server.gql(PREORDER, { id: 'doc.1', first: 4, after });
      after = okData(response).node.descendants.pageInfo.endCursor;
      expect(plannedRequests(response)).toBe(1 + 1);
    }
  });
});
