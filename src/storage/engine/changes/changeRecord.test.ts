import { describe, expect, it } from 'vitest';
import type { ChangeRecord, TreeNode } from '../../treeStore.js';
import { changeFromItem, changeItem } from './changeRecord.js';

const before: TreeNode = {
  id: 'lamp',
  parentId: 'shop',
  name: 'Lamp',
  position: 'a0',
  version: 3,
  childCount: 0,
  data: { slug: 'lamp', price: 12, specs: { watts: 40, colour: 'red' }, tags: ['a', null], blurb: 'x'.repeat(2000) },
  type: 'Product',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};
const record = (node: TreeNode | undefined, prior: TreeNode, kind: ChangeRecord['kind'] = 'UPDATED'): ChangeRecord => ({
  kind,
  nodeId: prior.id,
  ...(node ? { node } : {}),
  prior,
  rootId: 'shop',
  seq: 7,
  at: '2026-01-03T00:00:00.000Z',
  by: null,
});
const later = { version: 4, updatedAt: '2026-01-03T00:00:00.000Z' };
const roundTrip = (r: ChangeRecord) => changeFromItem(changeItem(r, 99));
const size = (r: ChangeRecord) => JSON.stringify(changeItem(r, 99)).length;

describe('a change record', () => {
  it('keeps of the node before only what differs from the node after, and gives it back whole', () => {
    const priced = { ...before, ...later, data: { ...before.data!, price: 14, specs: { watts: 40 } } };
    const update = record(priced, before);
    expect(roundTrip(update)).toEqual(update);
    expect(changeItem(update, 99).was).toEqual({
      version: 3,
      updatedAt: before.updatedAt,
      dataPatch: JSON.stringify({ price: 12, specs: { colour: 'red' } }),
    });
    // The big blurb once, not twice.
    expect(size(update)).toBeLessThan(JSON.stringify(before.data).length + 1500);
    const moved = { ...before, ...later, parentId: 'hall', position: 'b0' };
    expect(roundTrip(record(moved, before, 'MOVED'))).toEqual(record(moved, before, 'MOVED'));
    expect(changeItem(record(moved, before, 'MOVED'), 99).was).toEqual({
      parentId: 'shop',
      position: 'a0',
      version: 3,
      updatedAt: before.updatedAt,
    });
  });

  it('keeps the whole data before when no merge patch can give it back, and a delete its node whole', () => {
    const withNull = { ...before, data: { slug: 'lamp', note: { a: null } } };
    const cleared = record({ ...withNull, ...later, data: { slug: 'lamp' } }, withNull);
    expect(changeItem(cleared, 99).was).toMatchObject({ data: JSON.stringify(withNull.data) });
    expect(roundTrip(cleared)).toEqual(cleared);
    const emptied = record({ ...before, ...later, data: null }, before);
    expect(roundTrip(emptied)).toEqual(emptied);
    const filled = record(before, { ...before, version: 2, data: null });
    expect(roundTrip(filled)).toEqual(filled);
    const deleted = record(undefined, before, 'DELETED');
    expect(changeItem(deleted, 99).prior).toBeDefined();
    expect(roundTrip(deleted)).toEqual(deleted);
  });
});
