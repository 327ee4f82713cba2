import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractCostsOf } from '../../support/contractCosts.js';
import { loadInto } from '../../support/loadTree.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type GraphQLResponse, type TestServer } from '../../support/server.js';
import { fullTree, okData, type TreeSpec } from '../../support/tree.js';
import { traitsOf } from '../../support/traits.js';

/**
 * Lookahead: `children` nested k levels deep reads what the strategy can read in bulk, once
 * (one Query of closure rows, a wave of level Queries), and answers exactly what per-parent
 * reads answer: sibling order, `first` per parent, pageInfo and cursors. Request counts are
 * exact, node lookup included, on a tree of fan-out 10 and depth 3, as each strategy's folder
 * declares them (`contractCosts.ts`, `lookahead`).
 */
const FAN = fullTree('la', [10, 10, 10]); // 1,111 nodes
/** Too wide for one bulk read three levels deep: 10 + 10 × 201 nodes (over 2,000 at level 2). */
const WIDE = fullTree('lw', [10, 201]);
/** Small roots, for `roots { children }` (in a table of their own). */
const ROOTS = [fullTree('lr0', [3, 2]), fullTree('lr1', [2, 2]), { id: 'lr2' }];

const NESTED = (root: string, first = 10) =>
  `{ node(id: "${root}") { children(first: ${first}) { nodes { id ` +
  `children(first: ${first}) { nodes { id children(first: ${first}) { nodes { id } } } } } } } }`;

/** What `children(first)` nested `levels` deep answers for a spec, in spec order. */
function expected(spec: TreeSpec, firsts: number[]): unknown {
  const [first, ...rest] = firsts;
  const kids = (spec.children ?? []).slice(0, first);
  return { nodes: kids.map((kid) => ({ id: kid.id, ...(rest.length > 0 ? { children: expected(kid, rest) } : {}) })) };
}

const requests = (response: GraphQLResponse) => response.body.extensions!.dynamodb!.requests;

describe.each(STRATEGIES_UNDER_TEST)('%s: lookahead into nested children', (strategy) => {
  let server: TestServer;
  const budget = contractCostsOf(strategy).lookahead;

  beforeAll(async () => {
    // Reads only: the table is as loadTree wrote it, which depthWindows.test.ts verifies.
    server = await startTestServer({ strategy, verifyOnClose: false });
    await loadInto(server, [FAN, WIDE]);
  }, 120_000);
  afterAll(() => server?.close());

  it('reads children(first: 10) three levels deep in the budgeted requests', async () => {
    const response = await server.gql(NESTED('la'));
    expect(okData(response).node.children).toEqual(expected(FAN, [10, 10, 10]));
    expect(requests(response)).toBe(budget.nestedThree);
  });

  it('runs the nested query with default arguments in the same requests', async () => {
    const response = await server.gql(
      '{ node(id: "la") { children { nodes { id children { nodes { id children { nodes { id } } } } } } } }',
    );
    expect(okData(response).node.children).toEqual(expected(FAN, [100, 100, 100]));
    expect(requests(response)).toBe(budget.nestedThree);
  });

  it('gives every node of a bulk read its depth, tree and ancestors, as a read of the node alone does', async () => {
    const response = await server.gql(
      '{ node(id: "la.3") { children(first: 3) { nodes { id depth ancestors { id } ' +
        'children(first: 3) { nodes { id depth ancestors { id } } } } } } }',
    );
    const chainOf = (id: string) => id.split('.').map((_, i, parts) => ({ id: parts.slice(0, i + 1).join('.') }));
    const nodes = okData(response).node.children.nodes as Array<{
      id: string;
      depth: number;
      ancestors: Array<{ id: string }>;
      children: { nodes: Array<{ id: string; depth: number; ancestors: Array<{ id: string }> }> };
    }>;
    expect(nodes.map((n) => n.id)).toEqual(['la.3.0', 'la.3.1', 'la.3.2']);
    for (const child of nodes) {
      expect(child).toMatchObject({ depth: 2, ancestors: chainOf(child.id).slice(0, -1) });
      expect(child.children.nodes).toHaveLength(3);
      for (const grandchild of child.children.nodes)
        expect(grandchild).toEqual({ id: grandchild.id, depth: 3, ancestors: chainOf(grandchild.id).slice(0, -1) });
    }
  });

  it('answers pageInfo, cursors and `first` per parent exactly as per-parent reads do', async () => {
    const page = '{ pageInfo { hasNextPage endCursor } edges { cursor node { id } } }';
    const nested = await server.gql(
      '{ node(id: "la") { children(first: 3) { pageInfo { hasNextPage endCursor } ' +
        `edges { cursor node { id children(first: 4) ${page} } } } } }`,
    );
    const top = okData(nested).node.children;
    expect(top.pageInfo.hasNextPage).toBe(true);
    expect(top.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['la.0', 'la.1', 'la.2']);
    // The same pages, each read on its own (a single level: no lookahead).
    const alone = await server.gql(
      `{ node(id: "la") { children(first: 3) { pageInfo { hasNextPage endCursor } edges { cursor } } } }`,
    );
    expect(okData(alone).node.children.edges.map((e: { cursor: string }) => e.cursor)).toEqual(
      top.edges.map((e: { cursor: string }) => e.cursor),
    );
    expect(okData(alone).node.children.pageInfo).toEqual(top.pageInfo);
    for (const edge of top.edges) {
      const own = okData(await server.gql(`{ node(id: "${edge.node.id}") { children(first: 4) ${page} } }`)).node
        .children;
      expect(edge.node.children).toEqual(own);
      expect(own.pageInfo.hasNextPage).toBe(true);
    }
    // A cursor from the bulk read pages on like any other.
    const cursor = top.edges[0].node.children.pageInfo.endCursor;
    const next = await server.gql(`{ node(id: "la.0") { children(first: 100, after: "${cursor}") { nodes { id } } } }`);
    expect(okData(next).node.children.nodes.map((n: { id: string }) => n.id)).toEqual([
      'la.0.4',
      'la.0.5',
      'la.0.6',
      'la.0.7',
      'la.0.8',
      'la.0.9',
    ]);
  });

  it('honours aliases, fragments, inline fragments and @include/@skip', async () => {
    const query = `
      query($yes: Boolean!, $no: Boolean!) {
        node(id: "la") {
          two: children(first: 2) { nodes { id ...Kids } }
          one: children(first: 1) {
            edges { node { id ... on Node { children(first: 3) @include(if: $yes) { nodes { id } } } } }
          }
        }
      }
      fragment Kids on Node {
        children(first: 2) { nodes { id } }
        skipped: children(first: 7) @skip(if: $yes) { nodes { id } }
        dropped: children(first: 9) @include(if: $no) { nodes { id } }
      }`;
    const response = await server.gql(query, { yes: true, no: false });
    const node = okData(response).node;
    expect(node.two).toEqual(expected(FAN, [2, 2]));
    const firstOfThree = expected(FAN, [1, 3]) as { nodes: Array<{ id: string; children: unknown }> };
    expect(node.one).toEqual({ edges: firstOfThree.nodes.map((n) => ({ node: n })) });
    // Lookahead reads the levels once for both aliases.
    expect(requests(response)).toBeLessThanOrEqual(traitsOf(strategy).keepsPath ? budget.nestedThree : 1 + 2 + 3);
  });

  it('falls back to per-parent reads for a subtree too large for one bulk read: same answer', async () => {
    const response = await server.gql(NESTED('lw', 2));
    expect(okData(response).node.children).toEqual(expected(WIDE, [2, 2, 2]));
    // A bulk read stops at its limit (2,000 items per Query): never the whole 2,020 nodes.
    expect(response.body.extensions!.dynamodb!.itemsRead).toBeLessThan(2 * 2001 + 100);
  });

  it('reads the children of a list of roots in one wave', async () => {
    const alone = await startTestServer({ strategy });
    try {
      await loadInto(alone, ROOTS);
      const response = await alone.gql(
        '{ roots { nodes { id children(first: 10) { nodes { id children(first: 10) { nodes { id } } } } } } }',
      );
      expect(okData(response).roots).toEqual({
        nodes: ROOTS.map((spec) => ({ id: spec.id, children: expected(spec, [10, 10]) })),
      });
      // A root without children (lr2) costs nothing.
      expect(requests(response)).toBe(budget.rootsNested);
    } finally {
      await alone.close();
    }
  });

  it('reads the ancestors of a list of nodes in one wave', async () => {
    const ids = ['la.0.0.0', 'la.3.1.4', 'la.9.9.9', 'la.5.0.2', 'la.0.0.1'];
    const response = await server.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id ancestors { id } } }', { ids });
    expect(okData(response).nodes).toEqual(
      ids.map((id) => {
        const parts = id.split('.');
        return { id, ancestors: [1, 2, 3].map((n) => ({ id: parts.slice(0, n).join('.') })) };
      }),
    );
    expect(requests(response)).toBe(budget.ancestorsOfFive);
  });
});
