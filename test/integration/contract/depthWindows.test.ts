import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInto } from '../../support/loadTree.js';
import {
  plannedItemsRead,
  plannedRequests,
  startTestServer,
  STRATEGIES_UNDER_TEST,
  type GraphQLResponse,
  type TestServer,
} from '../../support/server.js';
import { fullTree, okData, type TreeSpec } from '../../support/tree.js';
import { traitsOf } from '../../support/traits.js';

/**
 * Depth windows, whichever way a strategy reads them: in one bulk read of its projection for a
 * small subtree (a range filtered by depth, under nested-set), per parent for a big one. Pages
 * cut from either are the same sequence as one page holding the whole window, forwards and
 * backwards, with siblings at equal positions (two concurrent inserts into one slot) among them;
 * breadth-first strategies answer by depth, then by parent, then by position and id, whichever
 * read answered. A subtree too big for one bulk read is read per parent, at the cost of one
 * bounded Query.
 */
const TIED: TreeSpec = {
  id: 'tw',
  children: [
    {
      id: 'tw.b',
      position: 'a1',
      children: [
        { id: 'tw.b.1', position: 'a1' },
        { id: 'tw.b.0', position: 'a0' },
      ],
    },
    {
      id: 'tw.a',
      position: 'a1',
      children: [
        { id: 'tw.a.1', position: 'a0', children: [{ id: 'tw.a.1.x', position: 'a0' }] },
        { id: 'tw.a.0', position: 'a0' },
      ],
    },
    {
      id: 'tw.c',
      position: 'a2',
      children: [
        {
          id: 'tw.c.0',
          position: 'a0',
          children: [
            { id: 'tw.c.0.y', position: 'a0' },
            { id: 'tw.c.0.z', position: 'a0V' },
          ],
        },
      ],
    },
  ],
};
/** 1 + 10 + 10 × 210 nodes: over what one bulk read goes through (2,000 range items). */
const BIG = fullTree('bw', [10, 210]);

const WINDOW = (args: string) =>
  `{ node(id: "tw") { descendants(${args}) { nodes { id } pageInfo { hasNextPage endCursor } } } }`;

/**
 * Breadth first, as the walk of levels reads it: by depth, then by parent, then by (position,
 * id) where the spec gives positions, else in spec order (loadTree spaces them in that order).
 */
function breadthFirst(spec: TreeSpec, maxDepth: number): string[] {
  const out: string[][] = [];
  const visit = (node: TreeSpec, depth: number) => {
    if (depth > maxDepth) return;
    const kids = [...(node.children ?? [])];
    if (kids.every((kid) => kid.position !== undefined))
      kids.sort((x, y) => {
        const [a, b] = [`${x.position}#${x.id}`, `${y.position}#${y.id}`];
        return a < b ? -1 : a > b ? 1 : 0;
      });
    (out[depth] ??= []).push(...kids.map((kid) => kid.id));
    for (const kid of kids) visit(kid, depth + 1);
  };
  visit(spec, 1);
  return out.flat();
}

describe.each(STRATEGIES_UNDER_TEST)('%s: depth windows, in bulk or per parent', (strategy) => {
  let server: TestServer;
  const traits = traitsOf(strategy);

  beforeAll(async () => {
    server = await startTestServer({ strategy });
    await loadInto(server, [TIED, BIG]);
  }, 120_000);
  afterAll(() => server?.close());

  const ids = (response: GraphQLResponse): string[] =>
    okData(response).node.descendants.nodes.map((n: { id: string }) => n.id);

  it('pages a window as one page gives it, forwards and backwards, siblings at equal positions included', async () => {
    const whole = ids(await server.gql(WINDOW('maxDepth: 3, first: 1000')));
    expect([...whole].sort()).toEqual(breadthFirst(TIED, 3).sort());
    if (traits.breadthFirst) expect(whole).toEqual(breadthFirst(TIED, 3));
    const forwards: string[] = [];
    let after: string | null = null;
    for (;;) {
      const args: string = `maxDepth: 3, first: 2${after ? `, after: "${after}"` : ''}`;
      const page = okData(await server.gql(WINDOW(args))).node.descendants;
      forwards.push(...page.nodes.map((n: { id: string }) => n.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(forwards).toEqual(whole);
    const last = okData(
      await server.gql(
        '{ node(id: "tw") { descendants(maxDepth: 3, last: 3) { nodes { id } pageInfo { hasPreviousPage } } } }',
      ),
    ).node.descendants;
    expect(last.nodes.map((n: { id: string }) => n.id)).toEqual(whole.slice(-3));
    expect(last.pageInfo.hasPreviousPage).toBe(true);
  });

  it('answers a window of a small subtree in one bulk read where the strategy has one', async () => {
    const response = await server.gql(WINDOW('minDepth: 2, maxDepth: 2'));
    // tw.a and tw.b share a position: tw.a first (its id), so its children first.
    expect(ids(response)).toEqual(
      traits.breadthFirst ? ['tw.a.0', 'tw.a.1', 'tw.b.0', 'tw.b.1', 'tw.c.0'] : expect.any(Array),
    );
    if (traits.windowsInBulk) expect(plannedRequests(response)).toBe(1 + 1);
  });

  it('reads a subtree too big for one bulk read per parent, after one bounded Query', async () => {
    const response = await server.gql('{ node(id: "bw") { descendants(maxDepth: 2, first: 30) { nodes { id } } } }');
    const expected = breadthFirst(BIG, 2).slice(0, 30);
    if (traits.breadthFirst) expect(ids(response)).toEqual(expected);
    else expect(ids(response)).toHaveLength(30);
    if (traits.windowsInBulk) {
      // The lookup, the Query that found the range longer than 2,000 items, then the walk: the
      // root's children, then 20 of the first one's (the page's other 20 nodes).
      expect(plannedRequests(response)).toBe(1 + 1 + 1 + 1);
      expect(plannedItemsRead(response)).toBeLessThan(2_000 + 10 + 21 + 10);
    }
  });
});
