import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractCostsOf } from '../../support/contractCosts.js';
import { loadInto } from '../../support/loadTree.js';
import {
  plannedItemsRead,
  plannedRequests,
  startTestServer,
  STRATEGIES_UNDER_TEST,
  type TestServer,
} from '../../support/server.js';
import { fullTree, okData } from '../../support/tree.js';

/**
 * A page costs what it holds, not what the subtree holds: every descendants of a 1,110-node and
 * of an 11,110-node subtree (fan-out 10, depth 3 and 4), paged whole by 1,000, within the most
 * requests and items read per node returned that each strategy declares (`contractCosts.ts`,
 * `pages`), and the first page of their children alone, which costs the same in both.
 */
const SMALL = fullTree('ps', [10, 10, 10]);
const BIG = fullTree('pb', [10, 10, 10, 10]);

interface PageCost {
  nodes: number;
  requests: number;
  itemsRead: number;
}

describe.each(STRATEGIES_UNDER_TEST)('%s: page costs', (strategy) => {
  let server: TestServer;
  const budget = contractCostsOf(strategy).pages;

  beforeAll(async () => {
    // Reads only: the table is as loadTree wrote it, which depthWindows.test.ts verifies (12,221
    // nodes take `tree verify` longer than the test).
    server = await startTestServer({ strategy, verifyOnClose: false });
    await loadInto(server, [SMALL, BIG]);
  }, 240_000);
  afterAll(() => server?.close());

  async function pageWhole(root: string, window = ''): Promise<PageCost[]> {
    const pages: PageCost[] = [];
    const seen = new Set<string>();
    let after: string | null = null;
    for (;;) {
      const args: string = `${window} first: 1000${after ? `, after: "${after}"` : ''}`;
      const response = await server.gql(
        `{ node(id: "${root}") { descendants(${args}) { nodes { id } pageInfo { hasNextPage endCursor } } } }`,
      );
      const { nodes, pageInfo } = okData(response).node.descendants;
      for (const node of nodes as Array<{ id: string }>) seen.add(node.id);
      pages.push({ nodes: nodes.length, requests: plannedRequests(response), itemsRead: plannedItemsRead(response) });
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
    }
    expect(seen.size).toBe(pages.reduce((n, p) => n + p.nodes, 0));
    return pages;
  }

  it('pages 1,110 and 11,110 descendants by 1,000 at the cost the strategy declares', async () => {
    const small = await pageWhole('ps');
    const big = await pageWhole('pb');
    expect(small.map((p) => p.nodes)).toEqual([1000, 110]);
    expect(big.map((p) => p.nodes)).toEqual([...Array<number>(11).fill(1000), 110]);
    for (const page of [...small, ...big]) {
      expect(page.requests).toBeLessThanOrEqual(budget.requestsMax);
      expect(page.itemsRead / page.nodes).toBeLessThanOrEqual(budget.itemsPerNodeMax);
    }
    // The budgets are tight: the costliest page reaches them.
    const all = [...small, ...big];
    expect(Math.max(...all.map((p) => p.requests))).toBe(budget.requestsMax);
    expect(Math.max(...all.map((p) => p.itemsRead / p.nodes))).toBeGreaterThan(budget.itemsPerNodeMax - 0.01);
  }, 120_000);

  it('reads the first level of a big subtree at the cost of a small one', async () => {
    const small = await pageWhole('ps', 'maxDepth: 1,');
    const big = await pageWhole('pb', 'maxDepth: 1,');
    expect(small).toEqual([{ nodes: 10, requests: 2, itemsRead: 11 }]);
    expect(big).toEqual(small);
  });

  it('reads nested children three levels deep of a big subtree at the cost the strategy declares', async () => {
    const nested = (root: string) =>
      server.gql(
        `{ node(id: "${root}") { children(first: 10) { nodes { children(first: 10) { nodes { ` +
          `children(first: 10) { nodes { id } } } } } } } }`,
      );
    const small = await nested('ps');
    const big = await nested('pb');
    const leaves = (response: Awaited<ReturnType<typeof nested>>) =>
      okData(response).node.children.nodes.flatMap((a: any) => a.children.nodes.flatMap((b: any) => b.children.nodes));
    expect(leaves(small)).toHaveLength(1000);
    expect(leaves(big)).toHaveLength(1000);
    expect(plannedRequests(small)).toBe(contractCostsOf(strategy).lookahead.nestedThree);
    expect(plannedRequests(big)).toBe(budget.nestedThreeOfBig);
  });
});
