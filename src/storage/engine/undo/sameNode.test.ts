import { describe, expect, it } from 'vitest';
import type { StoredNode } from '../../strategy.js';
import type { ChangeRecord, TreeNode } from '../../treeStore.js';
import { madeByChange, sameNode } from './sameNode.js';

const node = (id: string, fields: Partial<TreeNode> = {}): TreeNode => ({
  id,
  parentId: null,
  name: id,
  position: 'a0',
  version: 1,
  childCount: 0,
  data: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  ...fields,
});
const stored = (n: TreeNode): StoredNode => ({ node: n, rev: 1, deleting: undefined });
const created = (n: TreeNode, count: number): ChangeRecord => ({
  kind: 'CREATED',
  nodeId: n.id,
  node: n,
  count,
  rootId: n.id,
  seq: 1,
  at: n.createdAt,
  by: null,
});

describe('sameNode', () => {
  it('tells a node from a later one of the same id, by its stamp or, without one, its creation time', () => {
    expect(sameNode(node('x', { incarnation: 's1' }), node('x', { incarnation: 's1', version: 5 }))).toBe(true);
    expect(sameNode(node('x', { incarnation: 's1' }), node('x', { incarnation: 's2' }))).toBe(false);
    expect(sameNode(node('x'), node('x', { incarnation: 's2' }))).toBe(false);
    expect(sameNode(node('x'), node('x', { createdAt: '2030-01-02T00:00:00.000Z' }))).toBe(false);
    expect(sameNode(node('x'), node('x'))).toBe(true);
  });
});

describe('madeByChange', () => {
  const top = node('t', { incarnation: 's', childCount: 1 });
  const kid = node('k', { incarnation: 's', parentId: 't' });

  it('holds for the subtree the change made, and for nothing more or less', () => {
    expect(madeByChange([stored(top), stored(kid)], created(top, 2))).toBe(true);
    const added = node('g', { incarnation: 'other', parentId: 'k' });
    expect(madeByChange([stored(top), stored(kid), stored(added)], created(top, 2))).toBe(false);
    expect(madeByChange([stored(top)], created(top, 2))).toBe(false);
  });

  it("compares the root's children count for a change recorded before stamps", () => {
    const old = node('t', { childCount: 1 });
    expect(madeByChange([stored(old), stored(node('k'))], created(old, 2))).toBe(true);
    expect(madeByChange([stored({ ...old, childCount: 2 })], created(old, 2))).toBe(false);
  });
});
