import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInto } from '../../support/loadTree.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import type { GraphQLResponse } from '../../support/server.js';
import {
  buildTree,
  childIds,
  createNode,
  createNodeRaw,
  expectError,
  type ExpectedError,
  getNode,
  rootIds,
  snapshot,
  type CreateInput,
} from '../../support/tree.js';

const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

describe.each(STRATEGIES_UNDER_TEST)('%s: createNode', (strategy) => {
  let server: TestServer;
  let family = 0;

  beforeAll(async () => {
    server = await startTestServer({ strategy });
    await buildTree(server, { id: 'other', children: [{ id: 'other-1' }] });
  });
  afterAll(() => server?.close());

  /** A fresh root `f<n>` with children `f<n>-a`, `f<n>-b`, `f<n>-c`, in that order. */
  const freshFamily = async (): Promise<{ root: string; a: string; b: string; c: string }> => {
    const root = `f${++family}`;
    await buildTree(server, { id: root, children: [{ id: `${root}-a` }, { id: `${root}-b` }, { id: `${root}-c` }] });
    return { root, a: `${root}-a`, b: `${root}-b`, c: `${root}-c` };
  };

  /** Runs a create that must be refused with `code` and leave every tree as it was. */
  const expectRefused = async (
    input: CreateInput,
    code: string,
    roots: string[],
    expected: ExpectedError,
  ): Promise<void> => {
    const before = await snapshot(server, roots);
    const response: GraphQLResponse = await createNodeRaw(server, input);
    expectError(response, code, expected);
    expect(await snapshot(server, roots)).toEqual(before);
    if (input.id !== undefined && ID_PATTERN.test(input.id) && code !== 'ALREADY_EXISTS') {
      expect(await getNode(server, input.id)).toBeNull();
    }
  };

  it('generates an id when none is given', async () => {
    const { root } = await freshFamily();
    const one = await createNode(server, { parentId: root, name: 'generated one' });
    const two = await createNode(server, { parentId: root, name: 'generated two' });
    expect(one.id).toMatch(ID_PATTERN);
    expect(two.id).toMatch(ID_PATTERN);
    expect(one.id).not.toBe(two.id);
    expect(await getNode(server, one.id)).toMatchObject({ id: one.id, name: 'generated one', parentId: root });
    expect(await childIds(server, root)).toEqual([`${root}-a`, `${root}-b`, `${root}-c`, one.id, two.id]);
  });

  it('uses an explicit id, any allowed character and up to 64 characters', async () => {
    const { root } = await freshFamily();
    const long = 'L'.repeat(64);
    for (const id of ['x:y.z-W_9', long]) {
      const created = await createNode(server, { id, parentId: root, name: 'explicit' });
      expect(created).toMatchObject({
        id,
        parentId: root,
        rootId: root,
        depth: 1,
        childCount: 0,
        version: 1,
        data: null,
      });
    }
    expect(await getNode(server, long)).toMatchObject({ id: long, name: 'explicit' });
    expect(await getNode(server, root)).toMatchObject({ childCount: 5 });
  });

  it('answers the new node with its place in the tree and bumps the parent childCount', async () => {
    const { root, b } = await freshFamily();
    const created = await createNode(server, { id: `${root}-b-x`, parentId: b, name: 'Deep', data: { k: 'v' } });
    expect(created).toMatchObject({
      id: `${root}-b-x`,
      name: 'Deep',
      parentId: b,
      rootId: root,
      depth: 2,
      childCount: 0,
      data: { k: 'v' },
      version: 1,
    });
    expect(await getNode(server, b)).toMatchObject({ childCount: 1 });
    expect(await getNode(server, root)).toMatchObject({ childCount: 3 });
    expect(await childIds(server, b)).toEqual([`${root}-b-x`]);
  });

  it('creates a root when parentId is absent or null, last among the roots', async () => {
    const absent = await createNode(server, { id: 'new-root-1' });
    const nulled = await createNode(server, { id: 'new-root-2', parentId: null });
    for (const [node, id] of [
      [absent, 'new-root-1'],
      [nulled, 'new-root-2'],
    ] as const) {
      expect(node).toMatchObject({ id, parentId: null, rootId: id, depth: 0, childCount: 0 });
    }
    expect((await rootIds(server)).slice(-2)).toEqual(['new-root-1', 'new-root-2']);
  });

  it('places a new node last by default', async () => {
    const { root, a, b, c } = await freshFamily();
    await createNode(server, { id: `${root}-d`, parentId: root });
    expect(await childIds(server, root)).toEqual([a, b, c, `${root}-d`]);
  });

  it('places a new node before a sibling', async () => {
    const { root, a, b, c } = await freshFamily();
    await createNode(server, { id: `${root}-0`, parentId: root, before: a });
    await createNode(server, { id: `${root}-ab`, parentId: root, before: b });
    expect(await childIds(server, root)).toEqual([`${root}-0`, a, `${root}-ab`, b, c]);
  });

  it('places a new node after a sibling', async () => {
    const { root, a, b, c } = await freshFamily();
    await createNode(server, { id: `${root}-z`, parentId: root, after: c });
    await createNode(server, { id: `${root}-ab`, parentId: root, after: a });
    await createNode(server, { id: `${root}-ab2`, parentId: root, after: a });
    expect(await childIds(server, root)).toEqual([a, `${root}-ab2`, `${root}-ab`, b, c, `${root}-z`]);
  });

  it('accepts before and after together when they name neighbours', async () => {
    const { root, a, b, c } = await freshFamily();
    await createNode(server, { id: `${root}-bc`, parentId: root, after: b, before: c });
    expect(await childIds(server, root)).toEqual([a, b, `${root}-bc`, c]);
  });

  it('places a new root before another root', async () => {
    const { root } = await freshFamily();
    await createNode(server, { id: 'root-before', before: root });
    const roots = await rootIds(server);
    expect(roots.indexOf('root-before')).toBe(roots.indexOf(root) - 1);
  });

  it('refuses a taken id with ALREADY_EXISTS', async () => {
    const { root, a } = await freshFamily();
    await expectRefused({ id: a, parentId: 'other', name: 'dup' }, 'ALREADY_EXISTS', [root, 'other'], {
      message: `a node with id "${a}" already exists`,
      details: { id: a },
    });
    await expectRefused({ id: root, name: 'dup root' }, 'ALREADY_EXISTS', [root, 'other'], {
      message: `a node with id "${root}" already exists`,
      details: { id: root },
    });
    await expectRefused({ id: 'other-1', parentId: root }, 'ALREADY_EXISTS', [root, 'other'], {
      message: 'a node with id "other-1" already exists',
      details: { id: 'other-1' },
    });
    expect(await getNode(server, a)).toMatchObject({ name: a, parentId: root });
  });

  it('refuses a missing parent or sibling with NOT_FOUND', async () => {
    const { root } = await freshFamily();
    await expectRefused({ id: 'orphan', parentId: 'no-such-parent' }, 'NOT_FOUND', [root], {
      message: 'parent "no-such-parent" does not exist',
      details: { id: 'no-such-parent' },
    });
    await expectRefused({ id: 'orphan', parentId: root, before: 'no-such-sibling' }, 'NOT_FOUND', [root], {
      message: 'before sibling "no-such-sibling" does not exist',
      details: { id: 'no-such-sibling' },
    });
    await expectRefused({ id: 'orphan', parentId: root, after: 'no-such-sibling' }, 'NOT_FOUND', [root], {
      message: 'after sibling "no-such-sibling" does not exist',
      details: { id: 'no-such-sibling' },
    });
    await expectRefused({ id: 'orphan', before: 'no-such-root' }, 'NOT_FOUND', [root], {
      message: 'before sibling "no-such-root" does not exist',
      details: { id: 'no-such-root' },
    });
  });

  it('refuses malformed ids with BAD_USER_INPUT', async () => {
    const { root } = await freshFamily();
    for (const id of ['a b', 'M'.repeat(65), '', 'slash/no', 'ünï']) {
      await expectRefused({ id, parentId: root, name: 'bad id' }, 'BAD_USER_INPUT', [root], {
        message: `id must match ^[A-Za-z0-9_.:-]{1,64}$, got ${JSON.stringify(id)}`,
        details: { field: 'id' },
      });
    }
    await expectRefused({ id: 'fine', parentId: 'bad parent', name: 'bad parent id' }, 'BAD_USER_INPUT', [root], {
      message: 'parentId must match ^[A-Za-z0-9_.:-]{1,64}$, got "bad parent"',
      details: { field: 'parentId' },
    });
  });

  it('refuses an empty or over-long name with BAD_USER_INPUT, and takes 1 and 256 characters', async () => {
    const { root } = await freshFamily();
    await expectRefused({ id: 'no-name', parentId: root, name: '' }, 'BAD_USER_INPUT', [root], {
      message: 'name must be 1..256 characters and not blank, got 0',
      details: { field: 'name' },
    });
    await expectRefused({ id: 'long-name', parentId: root, name: 'n'.repeat(257) }, 'BAD_USER_INPUT', [root], {
      message: 'name must be 1..256 characters and not blank, got 257',
      details: { field: 'name' },
    });
    expect(await createNode(server, { id: 'name-1', parentId: root, name: 'n' })).toMatchObject({ name: 'n' });
    const longest = 'n'.repeat(256);
    expect(await createNode(server, { id: 'name-256', parentId: root, name: longest })).toMatchObject({
      name: longest,
    });
  });

  it('refuses before/after that is not a child of the target parent with BAD_USER_INPUT', async () => {
    const { root, a } = await freshFamily();
    const roots = [root, 'other'];
    await expectRefused({ id: 'stray', parentId: root, before: 'other-1' }, 'BAD_USER_INPUT', roots, {
      message: `before "other-1" is not a child of "${root}"`,
      details: { field: 'before' },
    });
    await expectRefused({ id: 'stray', parentId: root, after: 'other-1' }, 'BAD_USER_INPUT', roots, {
      message: `after "other-1" is not a child of "${root}"`,
      details: { field: 'after' },
    });
    await expectRefused({ id: 'stray', parentId: root, after: root }, 'BAD_USER_INPUT', roots, {
      message: `after "${root}" is not a child of "${root}"`,
      details: { field: 'after' },
    });
    await expectRefused({ id: 'stray', parentId: root, before: 'other' }, 'BAD_USER_INPUT', roots, {
      message: `before "other" is not a child of "${root}"`,
      details: { field: 'before' },
    });
    await expectRefused({ id: 'stray', before: a }, 'BAD_USER_INPUT', roots, {
      message: `before "${a}" is not a root`,
      details: { field: 'before' },
    });
  });

  it('refuses before and after that contradict each other with BAD_USER_INPUT', async () => {
    const { root, a, b } = await freshFamily();
    await expectRefused({ id: 'between', parentId: root, after: b, before: a }, 'BAD_USER_INPUT', [root], {
      message: `after "${b}" and before "${a}" are not adjacent siblings`,
      details: { field: 'before' },
    });
    await expectRefused({ id: 'between', parentId: root, after: a, before: a }, 'BAD_USER_INPUT', [root], {
      message: `after "${a}" and before "${a}" are not adjacent siblings`,
      details: { field: 'before' },
    });
  });

  it('refuses a create or a move into a used-up gap with DEPTH_LIMIT, before any write', async () => {
    // Two siblings whose positions share 1,008 characters, as thousands of inserts into one gap
    // make them: a node between them would need a position over 512 characters, and an edge over
    // DynamoDB's 1,024-byte sort key (its write would fail there, an INTERNAL_SERVER_ERROR).
    const shared = `a0${'V'.repeat(1006)}`;
    await loadInto(server, [
      {
        id: 'gap',
        children: [
          { id: 'gap-a', position: shared },
          { id: 'gap-b', position: `${shared}V` },
        ],
      },
    ]);
    await createNode(server, { id: 'gap-moving' });
    const expected = {
      message:
        "the gap between these siblings is used up (many inserts into it): the node's position would be 1013 " +
        'characters, over 512; place it elsewhere among its siblings, or respace them (tree reindex --respace)',
      details: { positionLength: 1013, maxPositionLength: 512 },
    };
    await expectRefused({ id: 'gap-new', parentId: 'gap', after: 'gap-a' }, 'DEPTH_LIMIT', ['gap'], expected);
    const before = await snapshot(server, ['gap', 'gap-moving']);
    const move = await server.gql(
      'mutation { reparent(id: "gap-moving", newParentId: "gap", after: "gap-a", before: "gap-b") { id } }',
    );
    expectError(move, 'DEPTH_LIMIT', expected);
    expect(await snapshot(server, ['gap', 'gap-moving'])).toEqual(before);
    // Elsewhere among the same siblings, positions are short again.
    expect(await createNode(server, { id: 'gap-first', parentId: 'gap', before: 'gap-a' })).toMatchObject({
      parentId: 'gap',
    });
    expect(await childIds(server, 'gap')).toEqual(['gap-first', 'gap-a', 'gap-b']);
  });
});
