import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveClient, subscribe } from '../../support/live.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { buildTree, forgedCursors, fullTree, okData } from '../../support/tree.js';

/**
 * Every kind of cursor the API hands out is sealed by one codec (src/storage/cursor.ts) and
 * bound to its list: forged, truncated or used on another list (another node, tree, window,
 * order or kind of list), it is refused with BAD_USER_INPUT, never read as a position.
 */

/** A kind of cursor: where to get a real one, and lists to use a cursor on (its own first). */
interface CursorKind {
  issue: string;
  /** `$a` is the cursor; the first is the list that issued it, the others re-target it. */
  use: string[];
}

const KINDS: Record<string, CursorKind> = {
  roots: {
    issue: '{ roots(first: 1) { edges { cursor } } }',
    use: [
      'query($a: String) { roots(after: $a) { nodes { id } } }',
      'query($a: String) { node(id: "r") { children(after: $a) { nodes { id } } } }',
    ],
  },
  children: {
    issue: '{ node(id: "r") { children(first: 1) { edges { cursor } } } }',
    use: [
      'query($a: String) { node(id: "r") { children(after: $a) { nodes { id } } } }',
      'query($a: String) { node(id: "a") { children(after: $a) { nodes { id } } } }',
      'query($a: String) { roots(after: $a) { nodes { id } } }',
    ],
  },
  descendants: {
    issue: '{ node(id: "r") { descendants(first: 1) { edges { cursor } } } }',
    use: [
      'query($a: String) { node(id: "r") { descendants(after: $a) { nodes { id } } } }',
      'query($a: String) { node(id: "a") { descendants(after: $a) { nodes { id } } } }',
      'query($a: String) { node(id: "r") { descendants(after: $a, minDepth: 2) { nodes { id } } } }',
      'query($a: String) { node(id: "r") { descendants(after: $a, order: PREORDER) { nodes { id } } } }',
    ],
  },
  'descendants in document order': {
    issue: '{ node(id: "r") { descendants(first: 1, order: PREORDER) { edges { cursor } } } }',
    use: [
      'query($a: String) { node(id: "r") { descendants(after: $a, order: PREORDER) { nodes { id } } } }',
      'query($a: String) { node(id: "a") { descendants(after: $a, order: PREORDER) { nodes { id } } } }',
      'query($a: String) { node(id: "r") { descendants(after: $a, maxDepth: 1, order: PREORDER) { nodes { id } } } }',
      'query($a: String) { node(id: "r") { descendants(after: $a) { nodes { id } } } }',
    ],
  },
  'a node history': {
    issue: '{ node(id: "a1") { history(first: 1) { edges { cursor } } } }',
    use: [
      'query($a: String) { node(id: "a1") { history(after: $a) { nodes { id } } } }',
      'query($a: String) { node(id: "r") { history(after: $a) { nodes { id } } } }',
      'query($a: String) { treeHistory(rootId: "r", after: $a) { nodes { id } } }',
    ],
  },
  'a tree history': {
    issue: '{ treeHistory(rootId: "r", first: 1) { edges { cursor } } }',
    use: [
      'query($a: String) { treeHistory(rootId: "r", after: $a) { nodes { id } } }',
      'query($a: String) { treeHistory(rootId: "q", after: $a) { nodes { id } } }',
      'query($a: String) { node(id: "a1") { history(after: $a) { nodes { id } } } }',
    ],
  },
  'deleted nodes': {
    issue: '{ deletedNodes(first: 1) { edges { cursor } } }',
    use: [
      'query($a: String) { deletedNodes(after: $a) { nodes { id } } }',
      'query($a: String) { treeHistory(rootId: "r", after: $a) { nodes { id } } }',
    ],
  },
  jobs: {
    issue: '{ jobs(first: 1) { edges { cursor } } }',
    use: [
      'query($a: String) { jobs(after: $a) { nodes { id } } }',
      'query($a: String) { roots(after: $a) { nodes { id } } }',
      'query($a: String) { deletedNodes(after: $a) { nodes { id } } }',
    ],
  },
};

/** The cursor cut short: its last characters, or all but its first 20. */
const truncated = (real: string): string[] => [real.slice(0, -3), real.slice(0, 20)];

describe.each(STRATEGIES_UNDER_TEST)('%s: every cursor', (strategy) => {
  let server: TestServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    // Transactions of 10 items: the delete of b (7 nodes) runs as a job.
    server = await startTestServer({ strategy, env: { TRANSACTION_ITEMS: '10' } });
    await buildTree(server, { id: 'r', children: [{ id: 'a', children: [{ id: 'a1' }, { id: 'a2' }] }] });
    await buildTree(server, fullTree('b', [2, 2]), 'r', { ordered: false });
    await buildTree(server, { id: 'q', children: [{ id: 'q1' }] });
    for (const name of ['one', 'two'])
      okData(await server.gql('mutation($n: String!) { updateNode(id: "a1", name: $n) { id } }', { n: name }));
    for (const id of ['a2', 'q1', 'b'])
      okData(await server.gql('mutation($id: ID!) { deleteNode(id: $id) { deletedCount } }', { id }));
  });

  afterAll(async () => {
    for (const client of clients) await client.dispose();
    await server?.close();
  });

  const codes = async (query: string, after: string) =>
    (await server.gql(query, { a: after })).body.errors?.map((e) => e.extensions?.code);

  it.each(Object.entries(KINDS))('refuses a cursor of %s forged, truncated or re-targeted', async (_, kind) => {
    const issued: unknown = okData(await server.gql(kind.issue));
    const real = JSON.stringify(issued).match(/"cursor":"([^"]+)"/)?.[1];
    expect(real, JSON.stringify(issued)).toBeTypeOf('string');
    const [own, ...others] = kind.use;
    // The real cursor reads its own list.
    expect(await codes(own!, real!)).toBeUndefined();
    for (const bad of [...forgedCursors(real!), ...truncated(real!)]) {
      expect(await codes(own!, bad), `${own} after ${bad}`).toEqual(['BAD_USER_INPUT']);
    }
    for (const other of others) expect(await codes(other, real!), other).toEqual(['BAD_USER_INPUT']);
  });

  it("refuses a treeChanges cursor forged, truncated or of another node's tree", async () => {
    const client = liveClient(server.url);
    clients.push(client);
    const refusal = async (nodeId: string, after: string) => {
      const sub = subscribe(client, { nodeId, after });
      await sub.until(1, 3000).catch(() => {});
      await sub.close();
      return sub.errors.map((e) => (e as { extensions?: { code?: string } }).extensions?.code);
    };
    const real = okData(await server.gql('{ node(id: "a") { changeCursor } }')).node.changeCursor as string;
    expect(real).toBeTypeOf('string');
    for (const bad of [...forgedCursors(real), ...truncated(real)]) {
      expect(await refusal('a', bad), bad).toEqual(['BAD_USER_INPUT']);
    }
    expect(await refusal('q', real)).toEqual(['BAD_USER_INPUT']);
    // Its own node's subscription takes it.
    const own = subscribe(client, { nodeId: 'a', after: real });
    await own.ready('a1', () => server.gql('mutation { updateNode(id: "a1", name: "poke") { id } }'));
    expect(own.errors).toEqual([]);
    await own.close();
  });
});
