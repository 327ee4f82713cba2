import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pauses } from '../../support/pause.js';
import { plannedRequests, startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import {
  buildTree,
  childIds,
  expectError,
  getNode,
  okData,
  rootIds,
  snapshot,
  type ExpectedError,
} from '../../support/tree.js';
import { traitsOf } from '../../support/traits.js';

/**
 * createNodes under every strategy: a list of up to 1,000 nodes naming their parents in it,
 * created all or none. Small lists in one transaction; big ones through an IMPORT job whose
 * nodes no read sees until all are written, given up (leaving nothing) when the parent moves
 * meanwhile. The same checks as createNode, with the node named in every refusal.
 */

const CREATE_NODES = `mutation($input: CreateNodesInput!) {
  createNodes(input: $input) {
    nodes { id parentId name data depth childCount position }
    job { kind status done total nodeId }
  }
}`;
const OUTLINE =
  'query($id: ID!) { node(id: $id) { childCount descendants(first: 1000, order: PREORDER) { nodes { id depth } } } }';
const BY_DEPTH = 'query($id: ID!) { node(id: $id) { descendants(first: 1000) { nodes { id } } } }';

interface Input {
  id?: string;
  parentId?: string;
  name: string;
  data?: Record<string, unknown>;
}

/** `prefix` with `fanOut` children, each with `leaves` children, as a createNodes list (children listed first). */
function family(prefix: string, fanOut: number, leaves: number): Input[] {
  const list: Input[] = [];
  for (let i = 0; i < fanOut; i++) {
    for (let j = 0; j < leaves; j++)
      list.push({ id: `${prefix}.${i}.${j}`, parentId: `${prefix}.${i}`, name: `leaf ${i}.${j}` });
    list.push({ id: `${prefix}.${i}`, parentId: prefix, name: `child ${i}`, data: { i } });
  }
  return [...list, { id: prefix, name: `top ${prefix}` }];
}

/** The outline a family gives: the top, then each child followed by its leaves. */
function familyOutline(prefix: string, fanOut: number, leaves: number, depth: number) {
  const outline = [];
  for (let i = 0; i < fanOut; i++) {
    outline.push({ id: `${prefix}.${i}`, depth: depth + 1 });
    for (let j = 0; j < leaves; j++) outline.push({ id: `${prefix}.${i}.${j}`, depth: depth + 2 });
  }
  return outline;
}

/** Transactions of an import's nodes before they join the tree: their node items carry the job's mark. */
const pendingNodes = (input: Record<string, unknown>) => JSON.stringify(input.TransactItems).includes('"pending"');

describe.each(STRATEGIES_UNDER_TEST)('%s: createNodes', (strategy) => {
  let server: TestServer;
  const pause = pauses();

  beforeAll(async () => {
    server = await startTestServer({ strategy, middleware: pause.middleware });
    await buildTree(server, { id: 'home', children: [{ id: 'home.old' }] });
  });
  afterAll(() => server?.close());

  /** Pauses the second transaction of pending nodes (the first one's are in the table). */
  const pauseWhilePending = () => {
    let seen = 0;
    return pause.next((command, input) => command.startsWith('TransactWrite') && pendingNodes(input) && ++seen === 2);
  };

  /** Pauses the first transaction after the nodes joined the tree (one of their projection). */
  const pauseWhileProjecting = () => {
    let joined = false;
    return pause.next((command, input) => {
      if (!command.startsWith('TransactWrite')) return false;
      if (joined) return true;
      joined = JSON.stringify(input.TransactItems).includes('"joined"');
      return false;
    });
  };

  const create = (input: Record<string, unknown>) => server.gql(CREATE_NODES, { input });

  it("creates a small subtree in one transaction, in list order, after the parent's children", async () => {
    const result = okData(await create({ parentId: 'home', nodes: family('s', 2, 2) })).createNodes;
    expect(result.job).toBeNull();
    expect(result.nodes.map((n: { id: string }) => n.id)).toEqual(family('s', 2, 2).map((n) => n.id));
    expect(result.nodes.at(-1)).toMatchObject({ id: 's', parentId: 'home', depth: 1, childCount: 2 });
    expect(result.nodes[2]).toMatchObject({ id: 's.0', parentId: 's', depth: 2, data: { i: 0 }, name: 'child 0' });
    expect(await childIds(server, 'home')).toEqual(['home.old', 's']);
    const outline = okData(await server.gql(OUTLINE, { id: 's' })).node;
    expect(outline).toEqual({ childCount: 2, descendants: { nodes: familyOutline('s', 2, 2, 1) } });
    expect((await getNode(server, 'home'))!.childCount).toBe(2);
  });

  it('creates roots, and generates the ids not given', async () => {
    const result = okData(
      await create({
        nodes: [{ id: 'rt', name: 'root' }, { parentId: 'rt', name: 'unnamed id' }, { name: 'another root' }],
      }),
    ).createNodes;
    const [root, child, other] = result.nodes;
    expect(root).toMatchObject({ id: 'rt', parentId: null, depth: 0 });
    expect(child).toMatchObject({ parentId: 'rt', depth: 1 });
    expect(child.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await rootIds(server)).slice(-2)).toEqual(['rt', other.id]);
  });

  it('creates a big subtree as an IMPORT job, every node joining the tree at once', async () => {
    const list = family('big', 12, 24); // 301 nodes
    const result = okData(await create({ parentId: 'home', nodes: list })).createNodes;
    expect(result.job).toEqual({ kind: 'IMPORT', status: 'DONE', done: 301, total: 301, nodeId: 'home' });
    expect(result.nodes).toHaveLength(301);
    const outline = okData(await server.gql(OUTLINE, { id: 'big' })).node;
    expect(outline).toEqual({ childCount: 12, descendants: { nodes: familyOutline('big', 12, 24, 1) } });
    // home.old, the family s, big
    expect(okData(await server.gql(BY_DEPTH, { id: 'home' })).node.descendants.nodes).toHaveLength(1 + 7 + 301);
    expect(await childIds(server, 'home')).toEqual(['home.old', 's', 'big']);
    expect(await server.verify()).toEqual([]);
  });

  it('creates big trees of roots as an IMPORT job', async () => {
    const list = [...family('bra', 4, 40), ...family('brb', 4, 40)];
    const result = okData(await create({ nodes: list })).createNodes;
    expect(result.job).toMatchObject({ kind: 'IMPORT', status: 'DONE', total: 330, nodeId: null });
    expect((await rootIds(server)).slice(-2)).toEqual(['bra', 'brb']);
    expect(okData(await server.gql(OUTLINE, { id: 'brb' })).node.descendants.nodes).toEqual(
      familyOutline('brb', 4, 40, 0),
    );
    expect(await server.verify()).toEqual([]);
  });

  it('shows none of the nodes while the job writes them, and all once they joined', async () => {
    await buildTree(server, { id: 'quiet' });
    const paused = pauseWhilePending();
    const creating = create({ parentId: 'quiet', nodes: family('hid', 10, 20) });
    await paused.reached;
    expect(await getNode(server, 'hid.0.0')).toBeNull();
    expect(await getNode(server, 'hid')).toBeNull();
    expect(okData(await server.gql(OUTLINE, { id: 'quiet' })).node).toEqual({
      childCount: 0,
      descendants: { nodes: [] },
    });
    // Not there for writes either: neither a parent nor a node to move.
    expectError(
      await server.gql('mutation { createNode(input: { parentId: "hid.0", name: "x" }) { id } }'),
      'NOT_FOUND',
      { message: 'parent "hid.0" does not exist', details: { id: 'hid.0' } },
    );
    expectError(await server.gql('mutation { reparent(id: "hid.0.0", newParentId: "quiet") { id } }'), 'NOT_FOUND', {
      message: 'node "hid.0.0" does not exist',
      details: { id: 'hid.0.0' },
    });
    const job = okData(await server.gql('{ jobs { nodes { kind status nodeId } } }')).jobs.nodes.find(
      (j: { kind: string; nodeId: string }) => j.kind === 'IMPORT' && j.nodeId === 'quiet',
    );
    expect(job).toMatchObject({ status: 'RUNNING' });
    // `tree verify` leaves them out too: they are not in the tree yet.
    expect(await server.verify()).toEqual([]);
    paused.release();
    okData(await creating);
    expect(okData(await server.gql(OUTLINE, { id: 'quiet' })).node.descendants.nodes).toEqual([
      { id: 'hid', depth: 1 },
      ...familyOutline('hid', 10, 20, 1),
    ]);
  });

  it('answers from the truth while the projection of the nodes is written', async () => {
    if (!traitsOf(strategy).keepsPath) return; // no projection: the nodes' join ends the job
    await buildTree(server, { id: 'proj' });
    const paused = pauseWhileProjecting();
    const creating = create({ parentId: 'proj', nodes: family('pj', 10, 20) });
    await paused.reached;
    const outline = [{ id: 'pj', depth: 1 }, ...familyOutline('pj', 10, 20, 1)];
    expect(okData(await server.gql(OUTLINE, { id: 'proj' })).node.descendants.nodes).toEqual(outline);
    expect(okData(await server.gql(BY_DEPTH, { id: 'proj' })).node.descendants.nodes).toHaveLength(211);
    expect(
      okData(await server.gql('{ node(id: "pj.3.7") { ancestors { id } } }')).node.ancestors.map(
        (a: { id: string }) => a.id,
      ),
    ).toEqual(['proj', 'pj', 'pj.3']);
    paused.release();
    okData(await creating);
    expect(okData(await server.gql(OUTLINE, { id: 'proj' })).node.descendants.nodes).toEqual(outline);
  });

  /** `count` siblings named `prefix.i`, with no parentId: all top nodes. */
  const flat = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => ({ id: `${prefix}.${i}`, name: `${prefix} ${i}` }));
  const CHILDREN =
    'query($id: ID!, $first: Int!) { node(id: $id) { childCount ' +
    'children(first: $first) { nodes { id } pageInfo { hasNextPage } } } }';

  it('creates a flat list too big for one transaction, up to 1,000 siblings, as an IMPORT job', async () => {
    // The 1,000 of the contract where a node's items cost the most to write (nested-set's keys
    // from its lineage); elsewhere a list well past one transaction, to keep the suite's time.
    const biggest = traitsOf(strategy).keepsLineage ? 1000 : 300;
    for (const count of [97, biggest]) {
      const parent = `flat${count}`;
      await buildTree(server, { id: parent, children: [{ id: `${parent}.old` }] });
      const response = await create({ parentId: parent, nodes: flat(parent, count) });
      const result = okData(response).createNodes;
      expect(result.job).toEqual({ kind: 'IMPORT', status: 'DONE', done: count, total: count, nodeId: parent });
      // Each item costs 2 write units in its transaction, and the job's fences and conditions a
      // few more: the job's record, which every transaction rewrites, stays small (its list of
      // nodes in packs beside it: in the record, 2.2 to 2.7 units an item).
      const { awsWriteUnits, itemsWritten } = response.body.extensions!.dynamodb!;
      expect(awsWriteUnits / itemsWritten).toBeLessThan(2.1);
      const after = okData(await server.gql(CHILDREN, { id: parent, first: 1000 })).node;
      expect(after.childCount).toBe(count + 1);
      expect(after.children.nodes.map((n: { id: string }) => n.id)).toEqual(
        [`${parent}.old`, ...flat(parent, count).map((n) => n.id)].slice(0, 1000),
      );
    }
    // Its marks gone from the siblings' edges, a page of them costs one Query again (beside the
    // Query of the entries of the jobs run lately: the summary of the open jobs is active).
    const page = await server.gql(CHILDREN, { id: `flat${biggest}`, first: 10 });
    expect(plannedRequests(page)).toBe(3); // the node, the jobs' entries, its children
    expect(await server.verify()).toEqual([]);
  });

  it('creates a flat list of roots too big for one transaction as an IMPORT job', async () => {
    const result = okData(await create({ nodes: flat('fr', 150) })).createNodes;
    expect(result.job).toMatchObject({ kind: 'IMPORT', status: 'DONE', total: 150, nodeId: null });
    expect((await rootIds(server)).slice(-150)).toEqual(flat('fr', 150).map((n) => n.id));
    expect(await server.verify()).toEqual([]);
  });

  it('hides a flat list while its job writes it; pages skip its siblings, writes beside go on', async () => {
    await buildTree(server, { id: 'side', children: [{ id: 'side.a' }] });
    const paused = pauseWhilePending();
    const creating = create({ parentId: 'side', nodes: flat('sib', 200) });
    await paused.reached;
    // A child created now goes after the siblings being written (their edges are in the way,
    // unseen): a page must read past them.
    okData(await server.gql('mutation { createNode(input: { id: "side.z", parentId: "side", name: "z" }) { id } }'));
    expect(okData(await server.gql(CHILDREN, { id: 'side', first: 2 })).node).toEqual({
      childCount: 2,
      children: { nodes: [{ id: 'side.a' }, { id: 'side.z' }], pageInfo: { hasNextPage: false } },
    });
    expect(okData(await server.gql(CHILDREN, { id: 'side', first: 1 })).node.children).toEqual({
      nodes: [{ id: 'side.a' }],
      pageInfo: { hasNextPage: true },
    });
    expect(okData(await server.gql(OUTLINE, { id: 'side' })).node.descendants.nodes).toEqual([
      { id: 'side.a', depth: 1 },
      { id: 'side.z', depth: 1 },
    ]);
    expect(await getNode(server, 'sib.0')).toBeNull();
    expect(await server.verify()).toEqual([]);
    paused.release();
    expect(okData(await creating).createNodes.job).toMatchObject({ status: 'DONE', total: 200 });
    const ids = okData(await server.gql(CHILDREN, { id: 'side', first: 1000 })).node.children.nodes.map(
      (n: { id: string }) => n.id,
    );
    expect(ids).toEqual(['side.a', ...flat('sib', 200).map((n) => n.id), 'side.z']);
    expect(await server.verify()).toEqual([]);
  });

  it('gives the job up, leaving nothing, when the parent moves while the nodes are written', async () => {
    await buildTree(server, { id: 'mv', children: [{ id: 'mv.p' }] });
    await buildTree(server, { id: 'mv2' });
    const paused = pauseWhilePending();
    const creating = create({ parentId: 'mv.p', nodes: family('gone', 10, 20) });
    await paused.reached;
    okData(await server.gql('mutation { reparent(id: "mv.p", newParentId: "mv2") { id } }'));
    paused.release();
    expectError(await creating, 'CONFLICT', {
      message:
        'the parent moved, was deleted or had its children respaced while the nodes were ' +
        'written, or one of their ids was taken; nothing was created',
    });
    expect(await getNode(server, 'gone')).toBeNull();
    expect(await getNode(server, 'gone.3.3')).toBeNull();
    expect(await childIds(server, 'mv.p')).toEqual([]);
    const jobs = okData(await server.gql('{ jobs { nodes { kind status nodeId } } }')).jobs.nodes;
    expect(jobs).toContainEqual({ kind: 'IMPORT', status: 'FAILED', nodeId: 'mv.p' });
    // The ids are free again.
    okData(await create({ parentId: 'mv.p', nodes: [{ id: 'gone', name: 'again' }] }));
    expect(await server.verify()).toEqual([]);
  });

  it('gives a flat list up, leaving no edge behind, when the parent is deleted while it is written', async () => {
    await buildTree(server, { id: 'doomed' });
    const paused = pauseWhilePending();
    const creating = create({ parentId: 'doomed', nodes: flat('lost', 200) });
    await paused.reached;
    okData(await server.gql('mutation { deleteNode(id: "doomed") { deletedCount } }'));
    paused.release();
    expectError(await creating, 'CONFLICT', {
      message:
        'the parent moved, was deleted or had its children respaced while the nodes were ' +
        'written, or one of their ids was taken; nothing was created',
    });
    expect(await getNode(server, 'lost.0')).toBeNull();
    okData(await create({ parentId: 'home', nodes: [{ id: 'lost.0', name: 'free again' }] }));
    expect(await server.verify()).toEqual([]);
  });

  it('refuses a bad list whole, naming the node, and changes nothing', async () => {
    const before = await snapshot(server, ['home']);
    const refusals: Array<[Record<string, unknown>, string, ExpectedError]> = [
      [
        {
          parentId: 'home',
          nodes: [
            { id: 'd1', name: 'a' },
            { id: 'd1', name: 'b' },
          ],
        },
        'BAD_USER_INPUT',
        { message: 'nodes[1].id "d1" is also the id of nodes[0]', details: { field: 'nodes[1].id' } },
      ],
      [
        {
          parentId: 'home',
          nodes: [
            { id: 'u1', name: 'a' },
            { id: 'u2', parentId: 'home', name: 'b' },
          ],
        },
        'BAD_USER_INPUT',
        {
          message:
            'nodes[1].parentId "home" is no id of the list: a node of the list goes under another one, ' +
            "or, without parentId, under the list's parent",
          details: { field: 'nodes[1].parentId' },
        },
      ],
      [
        {
          parentId: 'home',
          nodes: [
            { id: 'c1', parentId: 'c2', name: 'a' },
            { id: 'c2', parentId: 'c1', name: 'b' },
          ],
        },
        'BAD_USER_INPUT',
        {
          message: "nodes[0] is in a cycle of parentIds: no node of the list above it goes under the list's parent",
          details: { field: 'nodes[0].parentId' },
        },
      ],
      [
        {
          parentId: 'home',
          nodes: [
            { id: 'n1', name: 'a' },
            { id: 'n2', name: ' ' },
          ],
        },
        'BAD_USER_INPUT',
        {
          message: 'nodes[1].name must be 1..256 characters and not blank, got 1',
          details: { field: 'nodes[1].name' },
        },
      ],
      [
        { parentId: 'home', nodes: [{ id: 'bad id', name: 'a' }] },
        'BAD_USER_INPUT',
        { message: 'nodes[0].id must match ^[A-Za-z0-9_.:-]{1,64}$, got "bad id"', details: { field: 'nodes[0].id' } },
      ],
      [
        { parentId: 'home', nodes: [] },
        'BAD_USER_INPUT',
        { message: 'nodes must hold 1..1000 nodes, got 0', details: { field: 'nodes' } },
      ],
      [
        { parentId: 'home', nodes: Array.from({ length: 1001 }, (_, i) => ({ id: `m${i}`, name: 'm' })) },
        'BAD_USER_INPUT',
        { message: 'nodes must hold 1..1000 nodes, got 1001', details: { field: 'nodes' } },
      ],
      [
        { parentId: 'nowhere', nodes: [{ id: 'x1', name: 'a' }] },
        'NOT_FOUND',
        { message: 'parent "nowhere" does not exist', details: { id: 'nowhere' } },
      ],
      [
        {
          parentId: 'home',
          nodes: [
            { id: 'fresh', name: 'a' },
            { id: 'home.old', name: 'b' },
          ],
        },
        'ALREADY_EXISTS',
        { message: 'a node with id "home.old" already exists', details: { id: 'home.old' } },
      ],
    ];
    for (const [input, code, expected] of refusals) {
      expectError(await create(input), code, expected);
    }
    // 65 levels below home (a root) would reach depth 65.
    const chain = Array.from({ length: 65 }, (_, i) => ({
      id: `deep${i}`,
      ...(i > 0 ? { parentId: `deep${i - 1}` } : {}),
      name: 'deep',
    }));
    expectError(await create({ parentId: 'home', nodes: chain }), 'DEPTH_LIMIT', {
      message: 'the write would put a node at depth 65; the limit is 64',
      details: { maxDepth: 64, depth: 65 },
    });
    expect(await snapshot(server, ['home'])).toEqual(before);
  });
});
