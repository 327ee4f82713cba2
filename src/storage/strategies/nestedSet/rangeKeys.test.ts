import { generateKeyBetween } from 'fractional-indexing';
import { describe, expect, it } from 'vitest';
import { TreeError } from '../../../errors.js';
import { edgeSk } from '../../../dynamodb/keys.js';
import { prng } from '../../../../test/support/prng.js';
import {
  documentKey,
  documentStep,
  keyOfChain,
  MAX_SORT_KEY_BYTES,
  rangeIdToken,
  rangeItems,
  subtreeRange,
} from './rangeKeys.js';

const place = (path: string[], lineage: string[]) => ({ path, lineage, keys: path.map(() => '') });

describe('range keys', () => {
  it('give roots no item, and each other node one in the collection of its tree', () => {
    expect(rangeItems('r', place([], ['a0']))).toEqual([]);
    const [item] = rangeItems('c', place(['r', 'b'], ['a0', 'a1', 'a2']));
    expect(item).toEqual({
      pk: 'S#r',
      sk: documentStep('a1', 'b') + documentStep('a2', 'c'),
      id: 'c',
      path: ['r', 'b'],
      lineage: ['a0', 'a1', 'a2'],
    });
    expect(rangeItems('b', place(['r'], ['a0', 'a1']))[0]!.pk).toBe('S#r');
  });

  it("begin every key of a subtree with its root's key, inside the subtree's range", () => {
    const parent = documentKey('b', place(['r'], ['a0', 'a1']))!;
    const child = documentKey('c', place(['r', 'b'], ['a0', 'a1', 'Zz']))!;
    const [lo, hi] = subtreeRange(parent);
    expect(child.startsWith(parent)).toBe(true);
    expect(lo <= parent && child > lo && child < hi).toBe(true);
    // A later sibling of the parent, with a position that extends the parent's, sorts after.
    const sibling = documentKey('s', place(['r'], ['a0', 'a1V']))!;
    expect(sibling > hi).toBe(true);
  });

  it('sort document order: a node, its subtree, then its next sibling, siblings by position', () => {
    const random = prng(7);
    // A random tree of 200 nodes, each child placed at a random slot among its siblings.
    const children = new Map<string, Array<{ id: string; position: string }>>([['r', []]]);
    const ids = ['r'];
    for (let n = 0; n < 200; n++) {
      const parent = ids[Math.floor(random() * ids.length)]!;
      const siblings = children.get(parent)!;
      const at = Math.floor(random() * (siblings.length + 1));
      const position = generateKeyBetween(siblings[at - 1]?.position ?? null, siblings[at]?.position ?? null);
      const id = `n${n}`;
      siblings.splice(at, 0, { id, position });
      children.set(id, []);
      ids.push(id);
    }
    const preorder: string[] = [];
    const keys = new Map<string, string>();
    const walk = (id: string, path: string[], lineage: string[]) => {
      preorder.push(id);
      if (path.length > 0) keys.set(id, documentKey(id, place(path, lineage))!);
      for (const child of children.get(id)!) walk(child.id, [...path, id], [...lineage, child.position]);
    };
    walk('r', [], ['a0']);
    const byKey = [...keys.entries()].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id]) => id);
    expect(byKey).toEqual(preorder.slice(1));
  });

  it('tell apart siblings with equal positions by their id tokens', () => {
    const a = documentKey('a', place(['r'], ['a0', 'a1']))!;
    const b = documentKey('b', place(['r'], ['a0', 'a1']))!;
    expect(a).not.toBe(b);
    expect(rangeIdToken('a')).not.toBe(rangeIdToken('b'));
  });

  it("rebuild the key a PREORDER cursor's chain of edge sort keys points at", () => {
    const origin = documentKey('b', place(['r'], ['a0', 'a1']))!;
    const node = documentKey('d', place(['r', 'b', 'c'], ['a0', 'a1', 'a5', 'a3']))!;
    expect(keyOfChain(origin, [edgeSk('a5', 'c'), edgeSk('a3', 'd')])).toBe(node);
    expect(keyOfChain('', [edgeSk('a1', 'b')])).toBe(origin);
  });

  it('refuse a node whose key would pass the sort key limit, with DEPTH_LIMIT', () => {
    const path = Array.from({ length: 60 }, (_, i) => `n${i}`);
    expect(() => rangeItems('x', place(path, Array(61).fill('a0V123')))).not.toThrow();
    const long = Array(61).fill('a0'.padEnd(20, 'V'));
    try {
      rangeItems('x', place(path, long));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TreeError);
      expect((error as TreeError).code).toBe('DEPTH_LIMIT');
      expect((error as TreeError).details).toMatchObject({ depth: 60, maxKeyBytes: MAX_SORT_KEY_BYTES });
    }
  });
});
