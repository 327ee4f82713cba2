import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamo } from '../../../src/dynamodb/client.js';
import { loadTree } from '../../support/loadTree.js';
import { COPY, DELETE, RESTORE } from '../../support/copyMutations.js';
import { jwtCaller, type Gql } from '../../support/jwtCaller.js';
import { pauses } from '../../support/pause.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { EMOJI, subtreeShape, widest, withData } from '../../support/subtreeShape.js';
import { expectError, fullTree, getNode, okData, snapshot } from '../../support/tree.js';

/**
 * Copies of subtrees and deleted subtrees restored: of 1 and 100 nodes (2,041 and the largest
 * nodes: copyRestoreScale.test.ts, in the long suite), read back whole
 * (every node's name, data and place, in document order); refused into their own subtree, past
 * the depth limit, under a parent the caller may not write; restored once, where they were or
 * under another parent, and no longer after UNDO_RETENTION_DAYS. The server verifies the table
 * when it closes.
 */

const SECRET = 'a-copy-secret-of-at-least-32-bytes-long';

describe.each(STRATEGIES_UNDER_TEST)('%s: copy and restore', (strategy) => {
  let server: TestServer;
  let as: (claims: Record<string, unknown>) => Promise<Gql>;
  let admin: Gql;
  // Holds a chosen DynamoDB call of the server's, as a process paused at that instant.
  const pausing = pauses();

  beforeAll(async () => {
    server = await startTestServer({
      strategy,
      env: { AUTH: 'jwt', JWT_SECRET: SECRET, MAX_TREE_DEPTH: '5' },
      middleware: pausing.middleware,
    });
    as = (claims) => jwtCaller(server, SECRET, claims);
    admin = await as({ sub: 'admin' });
    const { doc, client } = createDynamo({ endpoint: server.config.dynamodbEndpoint, region: server.config.region });
    try {
      await loadTree(doc, server.table, strategy, [
        withData(fullTree('hundred', [3, 32])), // 100 nodes
        { id: 'dst', children: [{ id: 'dst.a' }, { id: 'dst.b' }] },
        { id: 'deep', children: [{ id: 'deep.1', children: [{ id: 'deep.2', children: [{ id: 'deep.3' }] }] }] },
        // 150 children of 1,000 CJK characters: 3 bytes each in UTF-8, 1 UTF-16 unit.
        { id: 'cjk', children: Array.from({ length: 150 }, (_, i) => ({ id: `cjk.${i}`, data: { text: CJK } })) },
      ]);
    } finally {
      client.destroy();
    }
  });
  afterAll(() => server?.close());

  const run = async (query: string, variables: Record<string, unknown> = {}, gql = admin) =>
    okData<Record<string, unknown>>(await gql(query, variables));
  const copy = async (input: Record<string, unknown>) =>
    (await run(COPY, { input })).copySubtree as {
      copiedCount: number;
      node: { id: string; parentId: string | null; name: string; depth: number };
      job: { kind: string; status: string } | null;
    };
  const view = () => ({ ...server, gql: admin });

  it('copies one node, with a new id and creation time, last under its new parent', async () => {
    const before = (await getNode(view(), 'hundred.0.0'))!;
    const copied = await copy({ id: 'hundred.0.0', newParentId: 'dst' });
    expect(copied).toMatchObject({ copiedCount: 1, job: null, node: { parentId: 'dst', name: before.name, depth: 1 } });
    expect(copied.node.id).not.toBe('hundred.0.0');
    const node = (await getNode(view(), copied.node.id))!;
    expect(node).toMatchObject({ data: before.data, version: 1, childCount: 0 });
    expect(node.createdAt > before.createdAt).toBe(true);
    const children = (await run(`{ node(id: "dst") { children { nodes { id } } } }`)) as {
      node: { children: { nodes: Array<{ id: string }> } };
    };
    expect(children.node.children.nodes.map((n) => n.id)).toEqual(['dst.a', 'dst.b', copied.node.id]);
  });

  it('copies 100 nodes with prefixed ids where before says, and its undo deletes the copy', async () => {
    const copied = await copy({ id: 'hundred', newParentId: 'dst', before: 'dst.b', idPrefix: 'c1-' });
    expect(copied).toMatchObject({ copiedCount: 100, node: { id: 'c1-hundred', parentId: 'dst', depth: 1 } });
    const source = await subtreeShape(admin, 'hundred');
    const copy1 = await subtreeShape(admin, 'c1-hundred');
    expect(copy1.shape).toEqual(source.shape);
    expect(copy1.ids).toEqual(source.ids.map((id) => `c1-${id}`));
    const order = (await run(`{ node(id: "dst") { children { nodes { id } } } }`)) as {
      node: { children: { nodes: Array<{ id: string }> } };
    };
    expect(order.node.children.nodes.map((n) => n.id).slice(0, 3)).toEqual(['dst.a', 'c1-hundred', 'dst.b']);

    const [change] = (
      (await run(`{ node(id: "c1-hundred") { history { nodes { id kind count by } } } }`)) as {
        node: { history: { nodes: Array<{ id: string; kind: string; count: number; by: string }> } };
      }
    ).node.history.nodes;
    expect(change).toMatchObject({ kind: 'COPIED', count: 100, by: 'admin' });
    await run(`mutation U($id: ID!) { undo(changeId: $id) { kind } }`, { id: change!.id });
    expect(await getNode(view(), 'c1-hundred')).toBeNull();
    expect(await getNode(view(), 'c1-hundred.2.31')).toBeNull();
  });

  it('restores a deleted subtree where it was, by restoreNode or by the undo of its delete', async () => {
    await copy({ id: 'hundred.1', newParentId: 'dst', after: 'dst.a', idPrefix: 'c3-' });
    const before = await snapshot(view(), ['dst']);
    await run(DELETE, { id: 'c3-hundred.1' });
    await run(RESTORE, { id: 'c3-hundred.1' });
    expect(await snapshot(view(), ['dst'])).toMatchObject({
      children: before.children,
      roots: before.roots,
    });

    await run(DELETE, { id: 'c3-hundred.1' });
    const [deleted] = (
      (await run(`{ treeHistory(rootId: "dst", first: 1) { nodes { id kind nodeId } } }`)) as {
        treeHistory: { nodes: Array<{ id: string; kind: string; nodeId: string }> };
      }
    ).treeHistory.nodes;
    expect(deleted).toMatchObject({ kind: 'DELETED', nodeId: 'c3-hundred.1' });
    const undone = (
      await run(`mutation U($id: ID!) { undo(changeId: $id) { kind nodeId count by } }`, { id: deleted!.id })
    ).undo;
    expect(undone).toEqual({ kind: 'RESTORED', nodeId: 'c3-hundred.1', count: 33, by: 'admin' });
    expect((await snapshot(view(), ['dst'])).children).toEqual(before.children);

    // The undo of the restore deletes it again; its undo restores it once more (redo).
    const [restored] = (
      (await run(`{ treeHistory(rootId: "dst", first: 1) { nodes { id kind } } }`)) as {
        treeHistory: { nodes: Array<{ id: string; kind: string }> };
      }
    ).treeHistory.nodes;
    expect(restored!.kind).toBe('RESTORED');
    const again = (await run(`mutation U($id: ID!) { undo(changeId: $id) { id kind count } }`, { id: restored!.id }))
      .undo as { id: string; kind: string; count: number };
    expect(again).toMatchObject({ kind: 'DELETED', count: 33 });
    expect(await getNode(view(), 'c3-hundred.1')).toBeNull();
    await run(`mutation U($id: ID!) { undo(changeId: $id) { kind } }`, { id: again.id });
    expect((await snapshot(view(), ['dst'])).children).toEqual(before.children);
  });

  it('restores under another parent when its own is gone, and refuses past the retention', async () => {
    await copy({ id: 'hundred.2', newParentId: 'dst.a', idPrefix: 'c4-' });
    await run(DELETE, { id: 'c4-hundred.2' });
    await run(DELETE, { id: 'dst.a' });
    expectError(await admin(RESTORE, { id: 'c4-hundred.2' }), 'NOT_FOUND', {
      message: 'parent "dst.a" of the deleted node "c4-hundred.2" is gone: restore it first, or give newParentId',
      details: { id: 'dst.a' },
    });
    expect((await run(RESTORE, { id: 'c4-hundred.2', newParentId: 'dst.b' })).restoreNode).toEqual({
      id: 'c4-hundred.2',
      parentId: 'dst.b',
    });

    // Its retention passed: the entry's time to live is in the past (DynamoDB may not have removed it yet).
    await run(DELETE, { id: 'c4-hundred.2' });
    const { doc, client } = createDynamo({ endpoint: server.config.dynamodbEndpoint, region: server.config.region });
    try {
      await doc.send(
        new UpdateCommand({
          TableName: server.table,
          Key: { pk: 'C#c4-hundred.2', sk: 'DELETED' },
          UpdateExpression: 'SET expiresAt = :past',
          ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 60 },
        }),
      );
    } finally {
      client.destroy();
    }
    expectError(await admin(RESTORE, { id: 'c4-hundred.2' }), 'RESTORE_EXPIRED', {
      message: /^the subtree deleted at "c4-hundred.2" on .* is no longer kept$/,
      details: { id: 'c4-hundred.2' },
    });
    expect(await getNode(view(), 'c4-hundred.2')).toBeNull();
  });

  it("lists deleted nodes only of the caller's trees; its pages and cursors tell nothing of the others", async () => {
    // A tenant of its own: its list holds only these deletes, newest first b3, b2, a1, b1.
    const owner = await as({ sub: 'owner', tenant: 'deleted-list' });
    const reader = await as({ sub: 'reader', tenant: 'deleted-list', trees: { da: 'read' } });
    const create = (id: string, parentId: string | null) =>
      run(
        'mutation C($input: CreateNodeInput!) { createNode(input: $input) { id } }',
        { input: { id, name: id, parentId } },
        owner,
      );
    for (const root of ['da', 'db']) await create(root, null);
    for (const id of ['db.1', 'da.1', 'db.2', 'db.3']) await create(id, id.split('.')[0]!);
    for (const id of ['db.1', 'da.1', 'db.2', 'db.3']) await run(DELETE, { id }, owner);

    const LIST = `query L($first: Int, $after: String) { deletedNodes(first: $first, after: $after) {
      edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage endCursor } } }`;
    type List = {
      edges: Array<{ cursor: string; node: { id: string } }>;
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
    const page = async (gql: Gql, first: number, after?: string) =>
      okData<{ deletedNodes: List }>(await gql(LIST, { first, after })).deletedNodes;
    const walk = async (gql: Gql) => {
      const pages: Array<[string[], boolean]> = [];
      let after: string | undefined;
      do {
        const { edges, pageInfo } = await page(gql, 1, after);
        pages.push([edges.map((e) => e.node.id), pageInfo.hasNextPage]);
        after = pageInfo.hasNextPage ? pageInfo.endCursor! : undefined;
      } while (after !== undefined && pages.length < 10);
      return pages;
    };
    expect(await walk(owner)).toEqual([
      [['db.3'], true],
      [['db.2'], true],
      [['da.1'], true],
      [['db.1'], false],
    ]);
    // The reader's pages are the same whether tree db had deletes or not.
    expect(await walk(reader)).toEqual([[['da.1'], false]]);
    const readerPage = await page(reader, 1);
    expect(readerPage.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: false,
      endCursor: readerPage.edges[0]!.cursor,
    });

    // A position of its own making, a garbled one, another tenant's, another list's: all refused.
    const refusal = { message: 'after is not a cursor of deletedNodes', details: { field: 'after' } };
    const [ownerFirst] = (await page(owner, 1)).edges;
    await run('mutation { createNode(input: { id: "dn-elsewhere", name: "x" }) { id } }');
    await run(DELETE, { id: 'dn-elsewhere' });
    const tenantCursor = (await page(admin, 1)).edges[0]!.cursor;
    const historyCursor = okData<{ treeHistory: { edges: Array<{ cursor: string }> } }>(
      await owner('{ treeHistory(rootId: "da") { edges { cursor } } }'),
    ).treeHistory.edges[0]!.cursor;
    const crafted = Buffer.from(JSON.stringify(['d', '9999'])).toString('base64url');
    for (const after of [crafted, 'garbage', `${ownerFirst!.cursor}A`, tenantCursor, historyCursor]) {
      expectError(await reader(LIST, { first: 1, after }), 'BAD_USER_INPUT', refusal);
    }
    expect((await page(owner, 5, ownerFirst!.cursor)).edges.map((e) => e.node.id)).toEqual(['db.2', 'da.1', 'db.1']);
  });

  it('deletes and restores a parent of 150 children of 1,000 CJK characters each', async () => {
    const before = await subtreeShape(admin, 'cjk');
    expect((await run(DELETE, { id: 'cjk' })).deleteNode).toEqual({ deletedCount: 151 });
    expect((await run(RESTORE, { id: 'cjk' })).restoreNode).toEqual({ id: 'cjk', parentId: null });
    expect(await subtreeShape(admin, 'cjk')).toEqual(before);
  });

  it('counts names, data and ids in UTF-8: 4-byte characters at the limit pass, one more is refused', async () => {
    const create = (input: Record<string, unknown>) =>
      admin(`mutation C($input: CreateNodeInput!) { createNode(input: $input) { id name data } }`, {
        input: { parentId: 'dst.b', name: 'n', ...input },
      });
    const id = 'i'.repeat(64);
    const at = widest(id);
    expect(okData(await create(at)).createNode).toEqual(at);
    expectError(await create({ name: EMOJI.repeat(257) }), 'BAD_USER_INPUT', {
      message: 'name must be 1..256 characters and not blank, got 257',
      details: { field: 'name' },
    });
    expectError(await create({ data: { t: EMOJI.repeat(16_383) } }), 'BAD_USER_INPUT', {
      message: 'data must serialize to at most 65536 bytes of JSON in UTF-8, got 65540',
      details: { field: 'data' },
    });
    expectError(await create({ id: `${id}i` }), 'BAD_USER_INPUT', {
      message: `id must match ^[A-Za-z0-9_.:-]{1,64}$, got "${id}i"`,
      details: { field: 'id' },
    });
    expectError(await create({ id: EMOJI.repeat(81) }), 'BAD_USER_INPUT', {
      message: `id must match ^[A-Za-z0-9_.:-]{1,64}$, got "${EMOJI.repeat(80)}"`,
      details: { field: 'id' },
    });
    const update = await admin(`mutation U($id: ID!, $data: JSONObject) { updateNode(id: $id, data: $data) { id } }`, {
      id,
      data: { t: EMOJI.repeat(16_383) },
    });
    expectError(update, 'BAD_USER_INPUT', {
      message: 'data must serialize to at most 65536 bytes of JSON in UTF-8, got 65540',
      details: { field: 'data' },
    });
    await run(DELETE, { id });
  });

  it('copies a subtree as it was at one instant, while a node moves up from a level not read yet', async () => {
    const nodes = [
      { id: 'snap', name: 'snap' },
      { id: 'snap-a', name: 'a', parentId: 'snap' },
      { id: 'snap-b', name: 'b', parentId: 'snap' },
      { id: 'snap-b1', name: 'b1', parentId: 'snap-b' },
      { id: 'snap-b2', name: 'b2', parentId: 'snap-b1' },
    ];
    await run(`mutation N($input: CreateNodesInput!) { createNodes(input: $input) { nodes { id } } }`, {
      input: { parentId: 'dst', nodes },
    });
    // The copy reads b1's children (the third level) only after b2 moved up to the first one.
    const held = pausing.next(
      (command, input) => command.startsWith('Query') && JSON.stringify(input).includes('"N#snap-b1"'),
    );
    const copying = admin(COPY, { input: { id: 'snap', idPrefix: 'c5-' } });
    await held.reached;
    await run(`mutation { reparent(id: "snap-b2", newParentId: "snap") { id } }`);
    held.release();
    const copied = okData<{ copySubtree: { copiedCount: number } }>(await copying).copySubtree;
    expect(copied.copiedCount).toBe(5);
    const source = await subtreeShape(admin, 'snap');
    const made = await subtreeShape(admin, 'c5-snap');
    expect(made.shape).toEqual(source.shape);
    expect(made.ids).toEqual(source.ids.map((id) => `c5-${id}`));
  });

  it('restores only for a caller who may write the tree the node was deleted from', async () => {
    await run(DELETE, { id: 'hundred.0.5' });
    const reader = await as({ sub: 'rita', trees: { hundred: 'read', dst: 'write' } });
    const before = await snapshot(view(), ['hundred', 'dst']);
    expectError(await reader(RESTORE, { id: 'hundred.0.5', newParentId: 'dst' }), 'FORBIDDEN', {
      message: 'you may read deleted node "hundred.0.5" but not change it',
      details: { id: 'hundred.0.5' },
    });
    expect(await snapshot(view(), ['hundred', 'dst'])).toEqual(before);
    expect((await run(RESTORE, { id: 'hundred.0.5' })).restoreNode).toEqual({
      id: 'hundred.0.5',
      parentId: 'hundred.0',
    });
  });

  it('refuses a copy into its own subtree, past the depth limit, or where the caller may not write', async () => {
    const before = await snapshot(view(), ['hundred', 'dst', 'deep']);
    expectError(await admin(COPY, { input: { id: 'hundred', newParentId: 'hundred.1.7' } }), 'CYCLE', {
      message: 'cannot copy "hundred" into its own subtree ("hundred.1.7")',
    });
    expectError(await admin(COPY, { input: { id: 'hundred', newParentId: 'hundred' } }), 'CYCLE', {
      message: 'cannot copy "hundred" into its own subtree ("hundred")',
    });
    // deep.3 is at depth 3: the copy's leaves would be at depth 6, past MAX_TREE_DEPTH (5).
    expectError(await admin(COPY, { input: { id: 'hundred', newParentId: 'deep.3' } }), 'DEPTH_LIMIT', {
      message: /depth/,
    });
    const reader = await as({ sub: 'rita', trees: { hundred: 'read', dst: 'read' } });
    expectError(await reader(COPY, { input: { id: 'hundred', newParentId: 'dst' } }), 'FORBIDDEN', {
      message: /but not change it/,
    });
    const stranger = await as({ sub: 'sam', trees: { dst: 'write' } });
    expectError(await stranger(COPY, { input: { id: 'hundred', newParentId: 'dst' } }), 'NOT_FOUND', {
      message: 'node "hundred" does not exist',
    });
    expect(await snapshot(view(), ['hundred', 'dst', 'deep'])).toEqual(before);
  });
});

const CJK = '樹'.repeat(1000);
