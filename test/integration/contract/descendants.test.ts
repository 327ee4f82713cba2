import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInto } from '../../support/loadTree.js';
import { plannedRequests, startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import {
  CONNECTION_FIELDS,
  expectError,
  type ExpectedError,
  firstRefusal,
  forgedCursorRefusal,
  forgedCursors,
  fullTree,
  okData,
  specIds,
  type PageView,
} from '../../support/tree.js';

const DESCENDANTS = `query($id: ID!, $minDepth: Int, $maxDepth: Int, $first: Int, $after: String) {
  node(id: $id) {
    descendants(minDepth: $minDepth, maxDepth: $maxDepth, first: $first, after: $after) { ${CONNECTION_FIELDS} }
  }
}`;

// 6 + 6*7 + 6*7*6 = 300 descendants of `big`.
const SPEC = fullTree('big', [6, 7, 6]);
const ALL = specIds(SPEC);
const depthOf = (id: string): number => id.split('.').length - 1;

interface Window {
  minDepth?: number;
  maxDepth?: number | null;
}

describe.each(STRATEGIES_UNDER_TEST)('%s: descendants paging', (strategy) => {
  let server: TestServer;
  /** The whole default window in one page: the order every paging must reproduce. */
  let whole: PageView;

  beforeAll(async () => {
    server = await startTestServer({ strategy });
    await loadInto(server, [SPEC]);
    whole = okData(await server.gql(DESCENDANTS, { id: 'big', first: 1000 })).node.descendants;
  }, 120_000);
  afterAll(() => server?.close());

  const page = async (window: Window, first: number, after: string | null): Promise<PageView> =>
    okData(await server.gql(DESCENDANTS, { id: 'big', ...window, first, after })).node.descendants;

  /** Pages to the end, asserting every page's shape; returns the nodes in order. */
  const pageAll = async (
    window: Window,
    first: number,
    total: number,
  ): Promise<Array<{ id: string; depth?: number }>> => {
    const nodes: Array<{ id: string; depth?: number }> = [];
    let after: string | null = null;
    for (let round = 0; round <= Math.ceil(total / first); round++) {
      const current = await page(window, first, after);
      expect(current.nodes).toHaveLength(Math.min(first, total - nodes.length));
      expect(current.edges.map((e) => e.node.id)).toEqual(current.nodes.map((n) => n.id));
      nodes.push(...current.nodes);
      expect(current.pageInfo.hasNextPage).toBe(nodes.length < total);
      expect(current.pageInfo.endCursor).toBe(current.edges.at(-1)?.cursor ?? null);
      if (!current.pageInfo.hasNextPage) return nodes;
      after = current.pageInfo.endCursor;
    }
    throw new Error('paging did not end');
  };

  /** The window's ids as expected: a set, since order within one depth is the strategy's. */
  const expectedIds = (min: number, max: number): string[] =>
    ALL.filter((id) => depthOf(id) >= min && depthOf(id) <= max).sort();

  const expectWindow = (nodes: Array<{ id: string; depth?: number }>, min: number, max: number): void => {
    const ids = nodes.map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(expectedIds(min, max));
    const depths = nodes.map((n) => n.depth);
    expect(depths).toEqual(ids.map(depthOf));
    expect(depths).toEqual([...depths].sort((a, b) => (a ?? 0) - (b ?? 0)));
  };

  it('answers the whole window in one page, by depth ascending', async () => {
    expect(whole.pageInfo.hasNextPage).toBe(false);
    expectWindow(whole.nodes, 1, 3);
    expect(whole.nodes).toHaveLength(300);
    expect(await page({}, 1000, null)).toEqual(whole);
  });

  it('defaults to a first page of 100', async () => {
    const data = okData(await server.gql(`{ node(id: "big") { descendants { ${CONNECTION_FIELDS} } } }`));
    expect(data.node.descendants.nodes).toEqual(whole.nodes.slice(0, 100));
    expect(data.node.descendants.pageInfo.hasNextPage).toBe(true);
  });

  it.each([100, 41, 300])(
    'pages 300 descendants with first: %i, none lost or repeated, in the same order',
    async (first) => {
      const nodes = await pageAll({}, first, 300);
      expectWindow(nodes, 1, 3);
      expect(nodes).toEqual(whole.nodes);
    },
  );

  it('pages a window with minDepth 0 and a maxDepth', async () => {
    const withSelf = await pageAll({ minDepth: 0, maxDepth: 2 }, 10, 49);
    expect(withSelf[0]).toEqual({ id: 'big', depth: 0 });
    expectWindow(withSelf, 0, 2);
    const oneLevel = await pageAll({ minDepth: 2, maxDepth: 2 }, 41, 42);
    expectWindow(oneLevel, 2, 2);
    const deepest = await pageAll({ minDepth: 3, maxDepth: null }, 100, 252);
    expectWindow(deepest, 3, 3);
    expect(await pageAll({ minDepth: 4 }, 100, 0)).toEqual([]);
  });

  it('pages descendants of an inner node with depths relative to it', async () => {
    const data = okData(
      await server.gql(
        `{ node(id: "big.2") { descendants(minDepth: 2, first: 5) { nodes { id depth } pageInfo { hasNextPage } } } }`,
      ),
    );
    expect(data.node.descendants.pageInfo.hasNextPage).toBe(true);
    const first = data.node.descendants.nodes as Array<{ id: string; depth: number }>;
    expect(first).toHaveLength(5);
    for (const node of first) {
      expect(node.id.startsWith('big.2.')).toBe(true);
      expect(node.depth).toBe(3);
    }
  });

  it('refuses a negative depth or first outside 1..1000 with BAD_USER_INPUT', async () => {
    const windows: Array<[Record<string, number>, ExpectedError]> = [
      [{ minDepth: -1 }, { message: 'minDepth must be >= 0, got -1', details: { field: 'minDepth' } }],
      [{ maxDepth: -1 }, { message: 'maxDepth must be >= minDepth (1), got -1', details: { field: 'maxDepth' } }],
      [
        { minDepth: -5, maxDepth: 2 },
        { message: 'minDepth must be >= 0, got -5', details: { field: 'minDepth' } },
      ],
    ];
    for (const [window, refusal] of windows) {
      expectError(await server.gql(DESCENDANTS, { id: 'big', ...window }), 'BAD_USER_INPUT', refusal);
    }
    for (const first of [0, -1, 1001]) {
      expectError(await server.gql(DESCENDANTS, { id: 'big', first }), 'BAD_USER_INPUT', firstRefusal(first));
    }
  });

  it('answers a window past the depth limit with no node, reading only the node itself', async () => {
    const beyond = await server.gql(DESCENDANTS, { id: 'big', minDepth: 99_999 });
    expect(okData(beyond).node.descendants).toMatchObject({ nodes: [], pageInfo: { hasNextPage: false } });
    expect(plannedRequests(beyond)).toBe(1);
    const bounded = await page({ minDepth: 3, maxDepth: 99_999 }, 1000, null);
    expect(bounded.nodes).toEqual(whole.nodes.filter((node: { id: string }) => depthOf(node.id) === 3));
  });

  it('refuses a forged cursor with BAD_USER_INPUT, and still honours the real one', async () => {
    const first = await page({}, 41, null);
    const real = first.pageInfo.endCursor!;
    for (const after of forgedCursors(real)) {
      const refused = await server.gql(DESCENDANTS, { id: 'big', first: 5, after });
      expectError(refused, 'BAD_USER_INPUT', forgedCursorRefusal(after));
    }
    const next = await page({}, 5, real);
    expect(next.nodes).toEqual(whole.nodes.slice(41, 46));
  });
});
