import { describe, expect, it } from 'vitest';
import { fileTree, nextPack } from './importPacks.js';
import type { ImportRecord } from './importRecords.js';

const record = (id: string, parentId: string | null): ImportRecord => ({
  id,
  parentId,
  name: id,
  data: null,
  type: null,
  position: null,
  at: `record ${id}`,
  place: 0,
});

/** r ── a (a1, a2 ── a2x), b, c ── (c1 ── c1x ── c1xy, c2): 11 records, listed parents first. */
const RECORDS = [
  record('r', null),
  record('a', 'r'),
  record('b', 'r'),
  record('c', 'r'),
  record('a1', 'a'),
  record('a2', 'a'),
  record('c1', 'c'),
  record('c2', 'c'),
  record('a2x', 'a2'),
  record('c1x', 'c1'),
  record('c1xy', 'c1x'),
];

function tree() {
  const childrenOf = new Map<string | null, ImportRecord[]>();
  for (const r of RECORDS) childrenOf.set(r.parentId, [...(childrenOf.get(r.parentId) ?? []), r]);
  return fileTree(RECORDS, childrenOf);
}

const ids = (records: ImportRecord[]) => records.map((r) => r.id);

describe('import packs', () => {
  it('count each subtree', () => {
    const { sizeOf } = tree();
    expect(Object.fromEntries(sizeOf)).toMatchObject({ r: 11, a: 4, a2: 2, b: 1, c: 5, c1: 3, c2: 1, c1xy: 1 });
  });

  it('pack whole subtrees of consecutive siblings, parents first, while they fit', () => {
    const t = tree();
    const siblings = t.childrenOf.get('r')!;
    const first = nextPack(t, siblings, 0, 5);
    expect({ ...first, records: ids(first.records) }).toEqual({
      records: ['a', 'a1', 'a2', 'a2x', 'b'],
      next: 2,
      cut: [],
    });
    expect(ids(nextPack(t, siblings, 1, 100).records)).toEqual(['b', 'c', 'c1', 'c1x', 'c1xy', 'c2']);
    expect(ids(nextPack(t, [t.childrenOf.get(null)![0]!], 0, 100).records)).toHaveLength(11);
  });

  it('cut the first sibling when it does not fit whole: it, then as much of its subtree as fits, in order', () => {
    const t = tree();
    const pack = nextPack(t, t.childrenOf.get('r')!, 2, 3);
    // c (5 nodes) does not fit 3: c, then c1 (3) does not fit the 2 left, so c1 and its first child.
    expect(ids(pack.records)).toEqual(['c', 'c1', 'c1x']);
    expect(pack.next).toBe(3);
    // Their children left out come later, each parent's after what the pack created.
    expect(pack.cut).toEqual(['c', 'c1x']);
    expect(ids(nextPack(t, t.childrenOf.get('r')!, 0, 1).records)).toEqual(['a']);
  });
});
