import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import {
  buildTree,
  CONNECTION_FIELDS,
  createNode,
  expectError,
  firstRefusal,
  forgedCursorRefusal,
  forgedCursors,
  okData,
  rootIds,
  type PageView,
} from '../../support/tree.js';

const CHILDREN = `query($id: ID!, $first: Int, $after: String) {
  node(id: $id) { children(first: $first, after: $after) { ${CONNECTION_FIELDS} } }
}`;
const ROOTS = `query($first: Int, $after: String) { roots(first: $first, after: $after) { ${CONNECTION_FIELDS} } }`;

const MANY = 250;
const manyIds = Array.from({ length: MANY }, (_, i) => `m-${String(i).padStart(3, '0')}`);

describe.each(STRATEGIES_UNDER_TEST)('%s: children and roots paging', (strategy) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ strategy });
    // The order must be known: most children come appended in list order (createNodes), and
    // every tenth is then inserted before the one after it, so pages cross positions of both kinds.
    const inserted = (i: number) => i % 10 === 5;
    await buildTree(server, { id: 'many', children: manyIds.filter((_, i) => !inserted(i)).map((id) => ({ id })) });
    await Promise.all(
      manyIds.flatMap((id, i) =>
        inserted(i) ? [createNode(server, { id, parentId: 'many', before: manyIds[i + 1] })] : [],
      ),
    );
    await buildTree(server, { id: 'few', children: Array.from({ length: 10 }, (_, i) => ({ id: `few-${i}` })) });
  }, 120_000);
  afterAll(() => server?.close());

  type Fetch = (first: number, after: string | null) => Promise<PageView>;
  const childrenPage =
    (id: string): Fetch =>
    async (first, after) =>
      okData(await server.gql(CHILDREN, { id, first, after })).node.children;
  const rootsPage: Fetch = async (first, after) => okData(await server.gql(ROOTS, { first, after })).roots;

  /** Pages to the end, asserting every page's shape; returns the ids in order. */
  const pageAll = async (fetch: Fetch, first: number, total: number): Promise<string[]> => {
    const ids: string[] = [];
    let after: string | null = null;
    for (let page = 0; page <= Math.ceil(total / first); page++) {
      const { nodes, edges, pageInfo } = await fetch(first, after);
      const expectedSize = Math.min(first, total - ids.length);
      expect(nodes).toHaveLength(expectedSize);
      expect(edges.map((e) => e.node.id)).toEqual(nodes.map((n) => n.id));
      ids.push(...nodes.map((n) => n.id));
      expect(pageInfo.hasNextPage).toBe(ids.length < total);
      expect(pageInfo.endCursor).toBe(edges.at(-1)?.cursor ?? null);
      if (!pageInfo.hasNextPage) return ids;
      after = pageInfo.endCursor;
    }
    throw new Error(`paging did not end after ${Math.ceil(total / first) + 1} pages`);
  };

  it('answers the default page of 100 children', async () => {
    const page = await childrenPage('many')(100, null);
    const data = okData(await server.gql(`{ node(id: "many") { childCount children { ${CONNECTION_FIELDS} } } }`));
    expect(data.node.childCount).toBe(MANY);
    expect(data.node.children.nodes).toEqual(page.nodes);
    expect(data.node.children.pageInfo.hasNextPage).toBe(true);
    expect(page.nodes.map((n) => n.id)).toEqual(manyIds.slice(0, 100));
    expect(page.pageInfo.hasNextPage).toBe(true);
  });

  it.each([100, 37, 7, 250, 1000])(
    'pages 250 children with first: %i, in order, none lost or repeated',
    async (first) => {
      expect(await pageAll(childrenPage('many'), first, MANY)).toEqual(manyIds);
    },
  );

  it('answers hasNextPage false on a last page that is exactly full', async () => {
    const page = await childrenPage('many')(50, null);
    const rest = await childrenPage('many')(200, page.pageInfo.endCursor);
    expect(rest.nodes.map((n) => n.id)).toEqual(manyIds.slice(50));
    expect(rest.pageInfo).toEqual({ hasNextPage: false, endCursor: rest.edges[199]!.cursor });
    const empty = await childrenPage('many')(10, rest.pageInfo.endCursor);
    expect(empty).toEqual({ nodes: [], edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });

  it('continues from a cursor in a later request, after a sibling was added at the end', async () => {
    const first = await childrenPage('few')(5, null);
    expect(first.nodes.map((n) => n.id)).toEqual(['few-0', 'few-1', 'few-2', 'few-3', 'few-4']);
    await createNode(server, { id: 'few-late', parentId: 'few' });
    const second = await childrenPage('few')(10, first.pageInfo.endCursor);
    expect(second.nodes.map((n) => n.id)).toEqual(['few-5', 'few-6', 'few-7', 'few-8', 'few-9', 'few-late']);
    expect(second.pageInfo.hasNextPage).toBe(false);
    const middle = await childrenPage('few')(2, first.edges[1]!.cursor);
    expect(middle.nodes.map((n) => n.id)).toEqual(['few-2', 'few-3']);
    expect(middle.pageInfo.hasNextPage).toBe(true);
  });

  it('answers startCursor and hasPreviousPage as Relay cursor connections do when paging forward', async () => {
    const INFO = 'edges { cursor } pageInfo { hasPreviousPage hasNextPage startCursor endCursor }';
    const children = async (after: string | null) =>
      okData(
        await server.gql(
          `query($after: String) { node(id: "few") { children(first: 3, after: $after) { ${INFO} } } }`,
          {
            after,
          },
        ),
      ).node.children;
    const first = await children(null);
    expect(first.pageInfo).toEqual({
      hasPreviousPage: false,
      hasNextPage: true,
      startCursor: first.edges[0].cursor,
      endCursor: first.edges[2].cursor,
    });
    const next = await children(first.pageInfo.endCursor);
    expect(next.pageInfo).toMatchObject({ hasPreviousPage: true, startCursor: next.edges[0].cursor });
    // The same on descendants and roots; an empty page has no cursors.
    const descendants = okData(await server.gql(`{ node(id: "few") { descendants(first: 2) { ${INFO} } } }`)).node
      .descendants;
    expect(descendants.pageInfo).toMatchObject({ hasPreviousPage: false, startCursor: descendants.edges[0].cursor });
    const roots = okData(await server.gql(`{ roots(first: 1) { ${INFO} } }`)).roots;
    expect(roots.pageInfo).toMatchObject({ hasPreviousPage: false, startCursor: roots.edges[0].cursor });
    const leaf = okData(await server.gql(`{ node(id: "few-0") { children { ${INFO} } } }`)).node.children;
    expect(leaf.pageInfo).toEqual({ hasPreviousPage: false, hasNextPage: false, startCursor: null, endCursor: null });
  });

  it('refuses first outside 1..1000 with BAD_USER_INPUT', async () => {
    for (const first of [0, -1, 1001]) {
      expectError(await server.gql(CHILDREN, { id: 'many', first }), 'BAD_USER_INPUT', firstRefusal(first));
      expectError(await server.gql(ROOTS, { first }), 'BAD_USER_INPUT', firstRefusal(first));
    }
  });

  it('refuses a cursor it did not issue with BAD_USER_INPUT', async () => {
    const real = (await childrenPage('many')(3, null)).pageInfo.endCursor!;
    for (const after of forgedCursors(real)) {
      const refusal = forgedCursorRefusal(after);
      expectError(await server.gql(CHILDREN, { id: 'many', first: 5, after }), 'BAD_USER_INPUT', refusal);
      expectError(await server.gql(ROOTS, { first: 5, after }), 'BAD_USER_INPUT', refusal);
    }
    expect((await childrenPage('many')(3, real)).nodes.map((n) => n.id)).toEqual(manyIds.slice(3, 6));
  });

  it('pages the roots, new roots last, with before placing among them', async () => {
    const created = ['root-1', 'root-2', 'root-3', 'root-4', 'root-5', 'root-6', 'root-7'];
    for (const id of created) await createNode(server, { id });
    await createNode(server, { id: 'root-0', before: 'root-1' });
    const all = await rootIds(server);
    expect(all.slice(-8)).toEqual(['root-0', ...created]);
    expect(all).toContain('many');
    expect(all).toContain('few');
    expect(all).not.toContain('m-000');
    expect(new Set(all).size).toBe(all.length);
    expect(await pageAll(rootsPage, 3, all.length)).toEqual(all);
    expect(await pageAll(rootsPage, 1, all.length)).toEqual(all);
  });
});
