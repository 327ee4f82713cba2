import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import type { GraphQLResponse } from '../../support/server.js';
import { buildTree, expectError, getNode, NODE_FIELDS, okData, snapshot, type NodeView } from '../../support/tree.js';

const UPDATE = `mutation Update($id: ID!, $name: String, $data: JSONObject, $expectedVersion: Int) {
  updateNode(id: $id, name: $name, data: $data, expectedVersion: $expectedVersion) { ${NODE_FIELDS} }
}`;

describe.each(STRATEGIES_UNDER_TEST)('%s: updateNode', (strategy) => {
  let server: TestServer;
  let family = 0;

  beforeAll(async () => {
    server = await startTestServer({ strategy });
  });
  afterAll(() => server?.close());

  const update = (variables: Record<string, unknown>): Promise<GraphQLResponse> => server.gql(UPDATE, variables);
  const updated = async (variables: Record<string, unknown>): Promise<NodeView> =>
    okData<{ updateNode: NodeView }>(await update(variables)).updateNode;

  /** A fresh root `u<n>` with children `u<n>-a` (data {v: 1}) and `u<n>-b`. */
  const freshTree = async (): Promise<{ root: string; a: string; b: string }> => {
    const root = `u${++family}`;
    await buildTree(server, { id: root, children: [{ id: `${root}-a`, data: { v: 1 } }, { id: `${root}-b` }] });
    return { root, a: `${root}-a`, b: `${root}-b` };
  };

  it('renames a node and bumps its version by one', async () => {
    const { root, a } = await freshTree();
    const before = (await getNode(server, a))!;
    const after = await updated({ id: a, name: 'Renamed' });
    expect(after).toEqual({
      ...before,
      name: 'Renamed',
      version: 2,
      updatedAt: after.updatedAt,
    });
    expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
    expect(await getNode(server, a)).toEqual(after);
    expect(await getNode(server, root)).toMatchObject({ childCount: 2 });
  });

  it('sets data, keeps the name, and bumps the version by exactly one per change', async () => {
    const { a } = await freshTree();
    const first = await updated({ id: a, data: { v: 2, list: [1, { x: null }] } });
    expect(first).toMatchObject({ name: a, data: { v: 2, list: [1, { x: null }] }, version: 2 });
    const second = await updated({ id: a, name: 'Third' });
    expect(second).toMatchObject({ name: 'Third', data: { v: 2, list: [1, { x: null }] }, version: 3 });
    const third = await updated({ id: a, data: { replaced: true }, expectedVersion: 3 });
    expect(third).toMatchObject({ name: 'Third', data: { replaced: true }, version: 4 });
    expect(await getNode(server, a)).toEqual(third);
    expect(third.createdAt).toBe(first.createdAt);
  });

  it('clears data with null', async () => {
    const { a } = await freshTree();
    const cleared = await updated({ id: a, data: null });
    expect(cleared).toMatchObject({ data: null, version: 2 });
    expect(await getNode(server, a)).toMatchObject({ data: null, version: 2 });
  });

  it('accepts the current expectedVersion', async () => {
    const { b } = await freshTree();
    expect(await updated({ id: b, name: 'B1', expectedVersion: 1 })).toMatchObject({ name: 'B1', version: 2 });
    expect(await updated({ id: b, name: 'B2', expectedVersion: 2 })).toMatchObject({ name: 'B2', version: 3 });
  });

  it('refuses a stale expectedVersion with VERSION_CONFLICT and changes nothing', async () => {
    const { root, a } = await freshTree();
    await updated({ id: a, name: 'Fresh' });
    const before = await snapshot(server, [root]);
    expectError(await update({ id: a, name: 'Stale', data: { lost: true }, expectedVersion: 1 }), 'VERSION_CONFLICT', {
      message: 'node "u5-a" is at version 2, expected 1',
      details: { currentVersion: 2 },
    });
    expectError(await update({ id: a, name: 'Future', expectedVersion: 3 }), 'VERSION_CONFLICT', {
      message: 'node "u5-a" is at version 2, expected 3',
      details: { currentVersion: 2 },
    });
    expect(await snapshot(server, [root])).toEqual(before);
    expect(await getNode(server, a)).toMatchObject({ name: 'Fresh', data: { v: 1 }, version: 2 });
  });

  it('refuses a missing node with NOT_FOUND', async () => {
    const { root } = await freshTree();
    const before = await snapshot(server, [root]);
    expectError(await update({ id: 'no-such-node', name: 'x' }), 'NOT_FOUND', {
      message: 'node "no-such-node" does not exist',
      details: { id: 'no-such-node' },
    });
    expectError(await update({ id: 'no-such-node', data: { a: 1 }, expectedVersion: 1 }), 'NOT_FOUND', {
      message: 'node "no-such-node" does not exist',
      details: { id: 'no-such-node' },
    });
    expect(await getNode(server, 'no-such-node')).toBeNull();
    expect(await snapshot(server, [root])).toEqual(before);
  });

  it('refuses an empty or over-long name with BAD_USER_INPUT and changes nothing', async () => {
    const { root, a } = await freshTree();
    const before = await snapshot(server, [root]);
    expectError(await update({ id: a, name: '' }), 'BAD_USER_INPUT', {
      message: 'name must be 1..256 characters and not blank, got 0',
      details: { field: 'name' },
    });
    expectError(await update({ id: a, name: 'n'.repeat(257) }), 'BAD_USER_INPUT', {
      message: 'name must be 1..256 characters and not blank, got 257',
      details: { field: 'name' },
    });
    expect(await snapshot(server, [root])).toEqual(before);
    expect(await updated({ id: a, name: 'n'.repeat(256) })).toMatchObject({ name: 'n'.repeat(256), version: 2 });
  });

  it('refuses a malformed id with BAD_USER_INPUT', async () => {
    expectError(await update({ id: 'a b', name: 'x' }), 'BAD_USER_INPUT', {
      message: 'id must match ^[A-Za-z0-9_.:-]{1,64}$, got "a b"',
      details: { field: 'id' },
    });
    expectError(await update({ id: 'x'.repeat(65), name: 'x' }), 'BAD_USER_INPUT', {
      message:
        'id must match ^[A-Za-z0-9_.:-]{1,64}$, got ' +
        '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"',
      details: { field: 'id' },
    });
  });
});
