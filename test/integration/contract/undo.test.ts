import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jwtCaller, type Gql } from '../../support/jwtCaller.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { childIds, expectError, getNode, okData, snapshot } from '../../support/tree.js';

/**
 * Undo: a recorded change taken back by the change that reverses it, only while its node is as
 * the change left it; the undo is a change of its own, so undoing it redoes.
 */

const SECRET = 'an-undo-secret-of-at-least-32-bytes-long';

const UNDO = `mutation U($changeId: ID!) { undo(changeId: $changeId) { id kind nodeId by oldName node { name } } }`;
const LAST_CHANGE = `query L($id: ID!) { node(id: $id) { history(first: 1) { nodes { id kind } } } }`;

describe.each(STRATEGIES_UNDER_TEST)('%s: undo', (strategy) => {
  let server: TestServer;
  let as: (claims: Record<string, unknown>) => Promise<Gql>;
  let alice: Gql;
  let tree = 0;

  beforeAll(async () => {
    server = await startTestServer({ strategy, env: { AUTH: 'jwt', JWT_SECRET: SECRET } });
    as = (claims) => jwtCaller(server, SECRET, claims);
    alice = await as({ sub: 'alice' });
  });
  afterAll(() => server?.close());

  const run = async (query: string, variables: Record<string, unknown> = {}, gql = alice) =>
    okData<Record<string, unknown>>(await gql(query, variables));
  const create = (id: string, parentId: string | null, data?: Record<string, unknown>) =>
    run('mutation C($input: CreateNodeInput!) { createNode(input: $input) { id } }', {
      input: { id, name: id, parentId, ...(data ? { data } : {}) },
    });
  const lastChange = async (id: string) =>
    ((await run(LAST_CHANGE, { id })).node as { history: { nodes: Array<{ id: string; kind: string }> } }).history
      .nodes[0]!;
  const undo = async (changeId: string, gql = alice) =>
    (await run(UNDO, { changeId }, gql)).undo as { id: string; kind: string; nodeId: string; by: string };
  // The server verifies the table when it closes: every undo leaves a whole tree.
  const viewOf = () => ({ ...server, gql: alice });

  /** A tree `r` with children a (data {v: 1}, children a1, a2), b, c. */
  const freshTree = async () => {
    const r = `un${++tree}`;
    await create(r, null);
    await create(`${r}-a`, r, { v: 1 });
    await create(`${r}-b`, r);
    await create(`${r}-c`, r);
    await create(`${r}-a1`, `${r}-a`);
    await create(`${r}-a2`, `${r}-a`);
    return { r, a: `${r}-a`, b: `${r}-b`, c: `${r}-c` };
  };

  it('undoes an update, and redoes it by undoing the undo', async () => {
    const { a } = await freshTree();
    await run(`mutation { updateNode(id: "${a}", name: "Renamed", data: {v: 2}) { id } }`);
    const change = await lastChange(a);
    const undone = await undo(change.id);
    expect(undone).toMatchObject({ kind: 'UPDATED', nodeId: a, by: 'alice', oldName: 'Renamed', node: { name: a } });
    expect(await getNode(viewOf(), a)).toMatchObject({ name: a, data: { v: 1 }, version: 3 });
    await undo(undone.id);
    expect(await getNode(viewOf(), a)).toMatchObject({ name: 'Renamed', data: { v: 2 }, version: 4 });
  });

  it('undoes a move: the node and its subtree go back where they were among their siblings', async () => {
    const { r, a, b, c } = await freshTree();
    await run(`mutation { reparent(id: "${a}", newParentId: "${c}") { id } }`);
    expect(await childIds(viewOf(), r)).toEqual([b, c]);
    const undone = await undo((await lastChange(a)).id);
    expect(undone.kind).toBe('MOVED');
    expect(await childIds(viewOf(), r)).toEqual([a, b, c]);
    expect(await childIds(viewOf(), a)).toEqual([`${r}-a1`, `${r}-a2`]);
    expect(await getNode(viewOf(), `${r}-a2`)).toMatchObject({ parentId: a, depth: 2, rootId: r });
  });

  it('undoes a reorder, and a move to another tree', async () => {
    const { r, a, b, c } = await freshTree();
    await run(`mutation { reparent(id: "${c}", newParentId: "${r}", before: "${a}") { id } }`);
    expect(await childIds(viewOf(), r)).toEqual([c, a, b]);
    expect((await undo((await lastChange(c)).id)).kind).toBe('REORDERED');
    expect(await childIds(viewOf(), r)).toEqual([a, b, c]);

    const other = await freshTree();
    await run(`mutation { reparent(id: "${b}", newParentId: "${other.a}") { id } }`);
    await undo((await lastChange(b)).id);
    expect(await childIds(viewOf(), r)).toEqual([a, b, c]);
    expect(await childIds(viewOf(), other.a)).toEqual([`${other.r}-a1`, `${other.r}-a2`]);
  });

  it('undoes a create by deleting the node, unless it has children it was not created with', async () => {
    const { r, b, c } = await freshTree();
    const created = (await lastChange(c)).id;
    await undo(created);
    expect(await getNode(viewOf(), c)).toBeNull();
    expect(await childIds(viewOf(), r)).toEqual([`${r}-a`, b]);

    await create(`${b}-x`, b);
    const before = await snapshot(viewOf(), [r]);
    const createdB = (
      (await run(`{ treeHistory(rootId: "${r}") { nodes { id kind nodeId } } }`)).treeHistory as {
        nodes: Array<{ id: string; kind: string; nodeId: string }>;
      }
    ).nodes.find((n) => n.kind === 'CREATED' && n.nodeId === b)!;
    expectError(await alice(UNDO, { changeId: createdB.id }), 'CONFLICT', {
      message: `node "${b}" changed since the change to undo`,
      details: { id: b, changeId: createdB.id },
    });
    expect(await snapshot(viewOf(), [r])).toEqual(before);
  });

  it('refuses an undo after a later change, naming it, and changes nothing', async () => {
    const { r, a, b } = await freshTree();
    await run(`mutation { updateNode(id: "${a}", name: "First") { id } }`);
    const first = (await lastChange(a)).id;
    const bob = await as({ sub: 'bob' });
    await run(`mutation { reparent(id: "${a}", newParentId: "${b}") { id } }`, {}, bob);
    const later = await lastChange(a);
    const before = await snapshot(viewOf(), [r]);
    const refused = await alice(UNDO, { changeId: first });
    expectError(refused, 'CONFLICT', {
      message: new RegExp(`^node "${a}" changed since the change to undo: MOVED by bob at `),
      details: { id: a, changeId: first, laterChangeId: later.id, laterKind: 'MOVED', by: 'bob' },
    });
    expect(refused.body.errors![0]!.message).toMatch(
      new RegExp(`^node "${a}" changed since the change to undo: MOVED by bob at `),
    );
    expect(await snapshot(viewOf(), [r])).toEqual(before);

    // Deleted since, with its new parent.
    await run(`mutation { deleteNode(id: "${b}") { deletedCount } }`);
    expectError(await alice(UNDO, { changeId: later.id }), 'CONFLICT', {
      message: `node "${a}" was deleted since the change to undo`,
      details: { id: a, changeId: later.id },
    });
  });

  const treeChange = async (rootId: string, kind: string, nodeId: string) =>
    (
      (await run(`{ treeHistory(rootId: "${rootId}") { nodes { id kind nodeId } } }`)).treeHistory as {
        nodes: Array<{ id: string; kind: string; nodeId: string }>;
      }
    ).nodes.find((n) => n.kind === kind && n.nodeId === nodeId)!.id;

  it('tells a node from an earlier one of the same id: the old create, update and delete are not undone', async () => {
    const { r, b } = await freshTree();
    const x = `${r}-x`;
    await create(x, b, { life: 1 });
    const firstCreate = (await lastChange(x)).id;
    await run(`mutation { updateNode(id: "${x}", name: "Old") { id } }`);
    const firstUpdate = (await lastChange(x)).id;
    await run(`mutation { deleteNode(id: "${x}") { deletedCount } }`);
    const firstDelete = await treeChange(r, 'DELETED', x);
    await create(x, b, { life: 2 });
    await run(`mutation { updateNode(id: "${x}", name: "New") { id } }`);
    const later = await lastChange(x);
    const before = await snapshot(viewOf(), [r]);
    const named = {
      message: new RegExp(`^node "${x}" changed since the change to undo: UPDATED by alice at `),
      details: { id: x, laterChangeId: later.id, laterKind: 'UPDATED', by: 'alice' },
    };
    for (const changeId of [firstCreate, firstUpdate, firstDelete])
      expectError(await alice(UNDO, { changeId }), 'CONFLICT', { ...named, details: { ...named.details, changeId } });
    expect(await snapshot(viewOf(), [r])).toEqual(before);
    expect(await getNode(viewOf(), x)).toMatchObject({ name: 'New', data: { life: 2 }, version: 2 });
  });

  it('undoes a create only while nothing was added anywhere below, nor a later delete restored', async () => {
    const { r, b } = await freshTree();
    const top = `${r}-t`;
    await run(`mutation N($input: CreateNodesInput!) { createNodes(input: $input) { nodes { id } } }`, {
      input: {
        parentId: b,
        nodes: [
          { id: top, name: 't' },
          { id: `${top}1`, name: 't1', parentId: top },
        ],
      },
    });
    const created = (await lastChange(top)).id;
    await create(`${top}1g`, `${top}1`);
    const before = await snapshot(viewOf(), [r]);
    expectError(await alice(UNDO, { changeId: created }), 'CONFLICT', {
      message: `node "${top}" changed since the change to undo`,
      details: { id: top, changeId: created, laterChangeId: undefined },
    });
    expect(await snapshot(viewOf(), [r])).toEqual(before);

    // A delete's undo restores what that delete kept, not a later delete's subtree.
    const d = `${r}-c`;
    await run(`mutation { deleteNode(id: "${d}") { deletedCount } }`);
    const firstDelete = await treeChange(r, 'DELETED', d);
    await run(`mutation { restoreNode(id: "${d}") { id } }`);
    await create(`${d}-kid`, d);
    await run(`mutation { deleteNode(id: "${d}") { deletedCount } }`);
    const gone = await snapshot(viewOf(), [r]);
    expectError(await alice(UNDO, { changeId: firstDelete }), 'CONFLICT', {
      message: new RegExp(`^node "${d}" changed since the change to undo: DELETED by alice at `),
      details: { id: d, changeId: firstDelete, laterKind: 'DELETED' },
    });
    expect(await snapshot(viewOf(), [r])).toEqual(gone);
    expect((await run(`mutation { restoreNode(id: "${d}") { id } }`)).restoreNode).toEqual({ id: d });
    expect(await childIds(viewOf(), d)).toEqual([`${d}-kid`]);
  });

  it("tells nothing in an undo's CONFLICT of a tree the caller may not read, nor if the node is there", async () => {
    const mine = await freshTree();
    const theirs = await freshTree();
    const carol = await as({ sub: 'carol', trees: { [mine.r]: 'write' } });
    await run(`mutation { updateNode(id: "${mine.a}", name: "Carol's") { id } }`, {}, carol);
    const change = (await lastChange(mine.a)).id;
    await run(`mutation { reparent(id: "${mine.a}", newParentId: "${theirs.b}") { id } }`);
    await run(`mutation { updateNode(id: "${mine.a}", name: "Elsewhere") { id } }`);
    const silent = {
      message: `node "${mine.a}" changed since the change to undo`,
      details: {
        id: mine.a,
        changeId: change,
        laterChangeId: undefined,
        laterKind: undefined,
        by: undefined,
        at: undefined,
      },
    };
    expectError(await carol(UNDO, { changeId: change }), 'CONFLICT', silent);
    await run(`mutation { deleteNode(id: "${mine.a}") { deletedCount } }`);
    expectError(await carol(UNDO, { changeId: change }), 'CONFLICT', silent);
  });

  it("orders a node's changes as they happened to it, whatever the writers' clocks say", async () => {
    const { a } = await freshTree();
    await run(`mutation { updateNode(id: "${a}", name: "On time") { id } }`);
    const onTime = await lastChange(a);
    // A writer whose clock is an hour behind.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 3_600_000 });
    try {
      await run(`mutation { updateNode(id: "${a}", name: "Late clock") { id } }`);
    } finally {
      vi.useRealTimers();
    }
    const history = (
      (await run(`{ node(id: "${a}") { history(first: 2) { nodes { id kind at oldName } } } }`)).node as {
        history: { nodes: Array<{ id: string; kind: string; at: string; oldName: string }> };
      }
    ).history.nodes;
    expect(history.map((h) => [h.id === onTime.id, h.oldName])).toEqual([
      [false, 'On time'],
      [true, a],
    ]);
    expect(Date.parse(history[0]!.at)).toBe(Date.parse(history[1]!.at) + 1);
    expectError(await alice(UNDO, { changeId: onTime.id }), 'CONFLICT', {
      message: new RegExp(`^node "${a}" changed since the change to undo: UPDATED by alice at `),
      details: { id: a, changeId: onTime.id, laterChangeId: history[0]!.id },
    });
  });

  it('refuses what is no change, a change out of sight, and a caller who may not write', async () => {
    const { r, a } = await freshTree();
    await run(`mutation { updateNode(id: "${a}", name: "Mine") { id } }`);
    const change = (await lastChange(a)).id;
    expectError(await alice(UNDO, { changeId: 'nope' }), 'BAD_USER_INPUT', {
      message: 'changeId is not the id of a change',
      details: { field: 'changeId' },
    });
    const missing = Buffer.from(JSON.stringify(['change', r, 999])).toString('base64url');
    expectError(await alice(UNDO, { changeId: missing }), 'NOT_FOUND', { message: /^change ".*" does not exist$/ });
    const stranger = await as({ sub: 'eve', trees: { elsewhere: 'write' } });
    expectError(await stranger(UNDO, { changeId: change }), 'NOT_FOUND', { message: /^change ".*" does not exist$/ });
    const reader = await as({ sub: 'rita', trees: { [r]: 'read' } });
    expectError(await reader(UNDO, { changeId: change }), 'FORBIDDEN', { message: /but not change it/ });
    expect(await getNode(viewOf(), a)).toMatchObject({ name: 'Mine' });
  });
});
