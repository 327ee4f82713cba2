import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInto } from '../../support/loadTree.js';
import { contractCostsOf } from '../../support/contractCosts.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type GraphQLResponse, type TestServer } from '../../support/server.js';
import { createNode, expectError, forgedCursorRefusal, fullTree, okData } from '../../support/tree.js';

/**
 * Relay's backward paging (`last`/`before`) on every connection of nodes: the pages read back
 * from the end give the list that forward pages give, with Relay's pageInfo; a cursor serves
 * both ways; and a backward page costs what the strategy declares (contractCosts.ts, `backward`).
 */
const FIELDS =
  'nodes { id } edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';
const PAGE_ARGS = 'first: $first, after: $after, last: $last, before: $before';
const VARIABLES = '$first: Int, $after: String, $last: Int, $before: String';
const CHILDREN = `query($id: ID!, ${VARIABLES}) { node(id: $id) { list: children(${PAGE_ARGS}) { ${FIELDS} } } }`;
const ROOTS = `query(${VARIABLES}) { list: roots(${PAGE_ARGS}) { ${FIELDS} } }`;
const DESCENDANTS = `query($id: ID!, $minDepth: Int, $maxDepth: Int, $order: DescendantsOrder, ${VARIABLES}) {
  node(id: $id) {
    list: descendants(minDepth: $minDepth, maxDepth: $maxDepth, order: $order, ${PAGE_ARGS}) { ${FIELDS} }
  }
}`;

interface Connection {
  nodes: Array<{ id: string }>;
  edges: Array<{ cursor: string; node: { id: string } }>;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** A list of the tree: its query and the variables naming it. */
interface List {
  name: string;
  query: string;
  variables: Record<string, unknown>;
}

// 4 + 12 + 24 = 40 descendants of `bw`, depth 3; `wide` has 23 children.
const SPEC = fullTree('bw', [4, 3, 2]);
const WIDE = Array.from({ length: 23 }, (_, i) => ({ id: `wide-${String(i).padStart(2, '0')}` }));

const LISTS: List[] = [
  { name: 'children', query: CHILDREN, variables: { id: 'wide' } },
  { name: 'children of a small node', query: CHILDREN, variables: { id: 'bw.2' } },
  { name: 'roots', query: ROOTS, variables: {} },
  ...[
    { minDepth: 1, maxDepth: null },
    { minDepth: 0, maxDepth: 2 },
    { minDepth: 2, maxDepth: 3 },
    { minDepth: 0, maxDepth: null },
  ].flatMap((window) =>
    (['BY_DEPTH', 'PREORDER'] as const).map((order) => ({
      name: `descendants ${order} ${window.minDepth}..${window.maxDepth ?? '∞'}`,
      query: DESCENDANTS,
      variables: { id: 'bw', order, ...window },
    })),
  ),
  { name: 'descendants BY_DEPTH of an inner node', query: DESCENDANTS, variables: { id: 'bw.1', minDepth: 0 } },
  { name: 'descendants PREORDER of an inner node', query: DESCENDANTS, variables: { id: 'bw.1', order: 'PREORDER' } },
];

describe.each(STRATEGIES_UNDER_TEST)('%s: backward paging (last, before)', (strategy) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ strategy });
    await loadInto(server, [SPEC, { id: 'wide', children: WIDE }]);
    for (const id of ['r-0', 'r-1', 'r-2']) await createNode(server, { id });
  }, 120_000);
  afterAll(() => server?.close());

  const page = async (list: List, args: Record<string, unknown>): Promise<Connection> => {
    const data = okData(await server.gql(list.query, { ...list.variables, ...args }));
    return (data.node ?? data).list as Connection;
  };

  /** Pages back from the end, `last` at a time, checking each page; the ids in list order. */
  const pageBack = async (list: List, last: number): Promise<string[]> => {
    const ids: string[] = [];
    let before: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const { nodes, edges, pageInfo } = await page(list, { last, before });
      expect(nodes.length).toBeLessThanOrEqual(last);
      expect(edges.map((edge) => edge.node.id)).toEqual(nodes.map((node) => node.id));
      expect(pageInfo.hasNextPage).toBe(before !== null);
      expect(pageInfo.startCursor).toBe(edges[0]?.cursor ?? null);
      expect(pageInfo.endCursor).toBe(edges.at(-1)?.cursor ?? null);
      ids.unshift(...nodes.map((node) => node.id));
      if (!pageInfo.hasPreviousPage) return ids;
      // Exact: a page that says more come before is full.
      expect(nodes.length).toBe(last);
      before = pageInfo.startCursor;
    }
    throw new Error('paging back did not end');
  };

  it.each(LISTS)('reads $name back from the end as forward pages read it', async (list) => {
    const forward = await page(list, { first: 1000 });
    const ids = forward.nodes.map((node) => node.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(await pageBack(list, 7)).toEqual(ids);
    // One page holding the whole list: nothing before it, nothing after.
    const whole = await page(list, { last: 1000 });
    expect(whole.nodes.map((node) => node.id)).toEqual(ids);
    expect(whole.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: false });
    // A cursor serves both ways: before a forward page's end, after a backward page's start.
    const cut = Math.min(5, ids.length - 1);
    const head = await page(list, { first: cut + 1 });
    const back = await page(list, { last: 3, before: head.pageInfo.endCursor });
    expect(back.nodes.map((node) => node.id)).toEqual(ids.slice(Math.max(0, cut - 3), cut));
    expect(back.pageInfo.hasPreviousPage).toBe(cut > 3);
    const tail = await page(list, { last: 2 });
    const on = await page(list, { first: 2, after: tail.pageInfo.startCursor });
    expect(on.nodes.map((node) => node.id)).toEqual(ids.slice(-1));
  });

  it('reads nested children backwards per parent, beside and below forward pages', async () => {
    const query = `{ node(id: "bw") {
      children(first: 3) { nodes { id children(last: 2) { nodes { id } } } }
      back: children(last: 2) { nodes { id children(first: 1) { nodes { id } } } }
    } }`;
    const { node } = okData(await server.gql(query));
    expect(node.children.nodes).toEqual(
      ['bw.0', 'bw.1', 'bw.2'].map((id) => ({ id, children: { nodes: [{ id: `${id}.1` }, { id: `${id}.2` }] } })),
    );
    expect(node.back.nodes).toEqual(['bw.2', 'bw.3'].map((id) => ({ id, children: { nodes: [{ id: `${id}.0` }] } })));
  });

  it('refuses last outside 1..1000, both directions at once, and a forged cursor with BAD_USER_INPUT', async () => {
    const list = LISTS[0]!;
    const run = (args: Record<string, unknown>): Promise<GraphQLResponse> =>
      server.gql(list.query, { ...list.variables, ...args });
    for (const last of [0, 1001]) {
      expectError(await run({ last }), 'BAD_USER_INPUT', {
        message: `last must be in 1..1000, got ${last}`,
        details: { field: 'last' },
      });
    }
    const { pageInfo } = await page(list, { first: 2 });
    const mixed = { message: 'page forward (first, after) or backward (last, before), not both' };
    expectError(await run({ first: 2, last: 2 }), 'BAD_USER_INPUT', mixed);
    expectError(await run({ after: pageInfo.endCursor, before: pageInfo.endCursor }), 'BAD_USER_INPUT', mixed);
    expectError(await run({ last: 2, before: 'garbage' }), 'BAD_USER_INPUT', forgedCursorRefusal('garbage'));
    // A cursor of another list.
    const other = (await page(LISTS[1]!, { first: 1 })).pageInfo.endCursor!;
    expect((await run({ last: 2, before: other })).body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('reads a backward page at the cost the strategy declares', async () => {
    const costs = contractCostsOf(strategy).backward;
    const requests = async (list: List, args: Record<string, unknown>) => {
      const response = await server.gql(list.query, { ...list.variables, ...args });
      okData(response);
      return response.body.extensions?.dynamodb?.requests;
    };
    const descendants = (variables: Record<string, unknown>): List => ({
      name: 'descendants',
      query: DESCENDANTS,
      variables: { id: 'bw', ...variables },
    });
    expect(await requests(LISTS[0]!, { last: 5 })).toBe(costs.childrenLast);
    expect(await requests(descendants({ maxDepth: 3 }), { last: 10 })).toBe(costs.descendantsLastBounded);
    expect(await requests(descendants({}), { last: 10 })).toBe(costs.descendantsLast);
    const { pageInfo } = await page(descendants({}), { first: 8 });
    expect(await requests(descendants({}), { last: 5, before: pageInfo.endCursor })).toBe(costs.descendantsBefore);
    expect(await requests(descendants({ order: 'PREORDER' }), { last: 5 })).toBe(costs.preorderLast);
    const preorder = await page(descendants({ order: 'PREORDER' }), { first: 20 });
    const before = { last: 5, before: preorder.pageInfo.endCursor };
    expect(await requests(descendants({ order: 'PREORDER' }), before)).toBe(costs.preorderBefore);
  });
});
