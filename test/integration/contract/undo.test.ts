import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
