import { describe, expect, it } from 'vitest';
import {
  collectionPk,
  edgeItem,
  edgeKey,
  edgeSk,
  NODE_ITEM,
  nodeAttributes,
  nodeFromItem,
  nodeItem,
  nodeKey,
  nodeFromItemWithout,
  storedFromItem,
  withPath,
} from './items.js';
import { MalformedItem } from '../../../dynamodb/decodeItem.js';
import { fieldChecks } from '../../../dynamodb/fieldChecks.js';
import { ROOTS_PK } from '../../../dynamodb/keys.js';
import { nodeWith, type TreeNode } from '../../treeStore.js';

const child: TreeNode = {
  id: 'child-1',
  parentId: 'parent-1',
  name: 'Child',
  position: 'a0',
  version: 3,
  childCount: 2,
  data: { colour: 'green', tags: ['x'] },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};
const root: TreeNode = { ...child, id: 'root-1', parentId: null, data: null, childCount: 0 };

describe('key layout', () => {
  it('keys a node item by its id', () => {
    expect(nodeKey('child-1')).toEqual({ pk: 'N#child-1', sk: 'NODE' });
  });

  it("keys an edge item in its parent's collection, by position then id", () => {
    expect(edgeKey(child)).toEqual({ pk: 'N#parent-1', sk: 'E#a0#child-1' });
  });

  it('keys the edge item of a root in the roots collection', () => {
    expect(ROOTS_PK).toBe('ROOTS');
    expect(edgeKey(root)).toEqual({ pk: 'ROOTS', sk: 'E#a0#root-1' });
  });

  it('names collections after their parent', () => {
    expect(collectionPk('parent-1')).toBe('N#parent-1');
    expect(collectionPk(null)).toBe('ROOTS');
  });

  it('orders edge sort keys by position, then id, as plain strings', () => {
    // What DynamoDB does with a string sort key: compare the UTF-8 bytes. Expected order is
    // by position first (a0 < a0V < a1, though 'a0' is a prefix of 'a0V'), then by id.
    const inOrder: Array<[position: string, id: string]> = [
      ['Zz', 'x'],
      ['a0', 'a'],
      ['a0', 'b'],
      ['a0', 'zzz'],
      ['a0V', '0'],
      ['a0V', 'A'],
      ['a0V0', '-'],
      ['a1', '.'],
    ];
    const keys = inOrder.map(([position, id]) => edgeSk(position, id));
    const byBytes = [...keys].reverse().sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(byBytes).toEqual(keys);
    expect([...keys].reverse().sort()).toEqual(keys);
    expect(edgeSk('a0', 'zzz') < edgeSk('a0V', '0')).toBe(true);
  });
});

describe('items', () => {
  it('stores the node attributes, dropping a null parentId and null data', () => {
    expect(nodeAttributes(child)).toEqual({
      id: 'child-1',
      parentId: 'parent-1',
      name: 'Child',
      position: 'a0',
      version: 3,
      childCount: 2,
      data: { colour: 'green', tags: ['x'] },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
    });
    const attributes = nodeAttributes(root);
    expect(attributes.parentId).toBeUndefined();
    expect(attributes.data).toBeUndefined();
  });

  it('builds the node item and the edge copy with the same attributes and rev', () => {
    const node = nodeItem(child, 7);
    const edge = edgeItem(child, 7);
    expect(node).toEqual({ pk: 'N#child-1', sk: 'NODE', ...nodeAttributes(child), rev: 7 });
    expect(edge).toEqual({ pk: 'N#parent-1', sk: 'E#a0#child-1', ...nodeAttributes(child), rev: 7 });
  });

  it('reads back the node it stored, from either item', () => {
    for (const node of [child, root]) {
      expect(nodeFromItem(nodeItem(node, 1))).toEqual(node);
      expect(nodeFromItem(edgeItem(node, 1))).toEqual(node);
    }
  });

  it('reads back what DynamoDB returns: absent attributes, not undefined ones', () => {
    const item = JSON.parse(JSON.stringify(nodeItem(root, 1))) as Record<string, unknown>;
    expect('parentId' in item).toBe(false);
    expect('data' in item).toBe(false);
    expect(nodeFromItem(item)).toEqual(root);
  });

  it('keeps a stored path on the node item only, and derives depth and rootId from it', () => {
    const withPath: TreeNode = { ...child, path: ['root-1', 'parent-1'] };
    expect(nodeItem(withPath, 1).path).toEqual(['root-1', 'parent-1']);
    expect(edgeItem(withPath, 1)).not.toHaveProperty('path');
    expect(nodeFromItem(nodeItem(withPath, 1))).toEqual({ ...withPath, depth: 2, rootId: 'root-1' });
    const rootWithPath: TreeNode = { ...root, path: [] };
    expect(nodeFromItem(nodeItem(rootWithPath, 1))).toEqual({ ...rootWithPath, depth: 0, rootId: 'root-1' });
  });

  it('reads a missing childCount as 0', () => {
    const { childCount: _omitted, ...item } = nodeItem(child, 1);
    expect(nodeFromItem(item).childCount).toBe(0);
  });

  it('reads the internal attributes a writer conditions on', () => {
    expect(storedFromItem(nodeItem(child, 4))).toEqual({ node: child, rev: 4, deleting: undefined });
    expect(storedFromItem({ ...nodeItem(child, 5), deleting: 'job-1' })).toEqual({
      node: child,
      rev: 5,
      deleting: 'job-1',
    });
    const { rev: _omitted, ...withoutRev } = nodeItem(child, 1);
    expect(storedFromItem(withoutRev).rev).toBe(0);
    expect(storedFromItem({ ...nodeItem(child, 2), pending: 'job-2', respacing: 9, claim: 'job-3' })).toEqual({
      node: child,
      rev: 2,
      deleting: undefined,
      pending: 'job-2',
      respacing: 9,
      claim: 'job-3',
    });
  });
});

describe('decoding stored node items', () => {
  const good = nodeItem(child, 3);
  const malformed: Array<[string, Record<string, unknown>]> = [
    ['version: Invalid input: expected number, received string', { ...good, version: '3' }],
    ['name: Invalid input: expected string, received undefined', { ...good, name: undefined }],
    ['path.1: Invalid input: expected string, received number', { ...good, path: ['a', 7] }],
    ['data: Invalid input: expected record, received array', { ...good, data: [1, 2] }],
    ['parentId: Invalid input: expected string, received number', { ...good, parentId: 12 }],
  ];

  it.each(malformed)('refuses an item whose %s, naming its key', (problem, item) => {
    expect(() => nodeFromItem(item)).toThrow(new MalformedItem(item, problem));
    expect(() => nodeFromItem(item)).toThrow(`item N#child-1 NODE is malformed: ${problem}`);
  });

  it('checks by hand, with the checks derived from the schema, exactly what the schema checks', () => {
    const checks = fieldChecks(NODE_ITEM);
    const looksLikeNode = (item: Record<string, unknown>) => checks.every(([name, check]) => check(item[name]));
    const items = [
      good,
      edgeItem(child, 1),
      { ...good, path: ['r'], lineage: ['a0', 'a1'] },
      ...malformed.map(([, item]) => item),
    ];
    for (const item of items) expect(looksLikeNode(item)).toBe(NODE_ITEM.safeParse(item).success);
  });

  it('refuses an item whose internal attributes are not what a writer conditions on, naming its key', () => {
    const item = { ...good, rev: '3', claim: 7 };
    expect(nodeFromItem(item)).toEqual(child);
    expect(() => storedFromItem(item)).toThrow(
      new MalformedItem(
        item,
        'rev: Invalid input: expected number, received string; claim: Invalid input: expected string, received number',
      ),
    );
  });
});

describe('nodes read without some fields', () => {
  const item = { ...nodeItem({ ...child, path: ['parent-1'] }, 3) };
  const leftOut = ['name', 'data', 'createdAt'] as const;
  const { name: _name, data: _data, createdAt: _createdAt, ...read } = item;

  it('gives the fields read as nodeFromItem does, and throws on reading one left out', () => {
    const node = nodeFromItemWithout(leftOut)(read);
    const whole = nodeFromItem(item);
    for (const field of ['id', 'parentId', 'position', 'version', 'childCount', 'updatedAt', 'depth', 'rootId', 'path'])
      expect(node[field as keyof TreeNode]).toEqual(whole[field as keyof TreeNode]);
    for (const field of leftOut) expect(() => node[field]).toThrow(`node field ${field} was left out of this read`);
  });

  it('stays so when copied with other fields', () => {
    for (const copy of [
      nodeWith(nodeFromItemWithout(leftOut)(read), { depth: 4 }),
      withPath(nodeFromItemWithout(leftOut)(read), ['r']),
    ]) {
      expect(copy.id).toBe('child-1');
      expect(() => copy.name).toThrow('left out');
    }
    expect(Object.getPrototypeOf(nodeWith(nodeFromItem(item), { depth: 4 }))).toBe(Object.prototype);
  });

  it('checks the fields read, and only those', () => {
    expect(() => nodeFromItemWithout(leftOut)({ ...read, version: '3' })).toThrow(
      'version: Invalid input: expected number, received string',
    );
    expect(() => nodeFromItemWithout(['name'])(read)).toThrow(
      'createdAt: Invalid input: expected string, received undefined',
    );
    expect(nodeFromItemWithout([])(item).name).toBe('Child');
  });
});
