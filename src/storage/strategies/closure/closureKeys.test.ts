import { describe, expect, it } from 'vitest';
import { closureRange, closureRows, closureSk, isClosureRow } from './closureKeys.js';

describe('closure keys', () => {
  it("gives a node one thin row per ancestor, in the ancestor's collection, by distance", () => {
    expect(closureRows('c', ['r', 'a'])).toEqual([
      { pk: 'N#r', sk: 'D#002#c', id: 'c' },
      { pk: 'N#a', sk: 'D#001#c', id: 'c' },
    ]);
    expect(closureRows('r', [])).toEqual([]);
  });

  it('recognises rows among the items of a node collection', () => {
    expect(isClosureRow({ pk: 'N#r', sk: closureSk(1, 'c') })).toBe(true);
    expect(isClosureRow({ pk: 'N#r', sk: 'NODE' })).toBe(false);
    expect(isClosureRow({ pk: 'N#r', sk: 'E#a0#c' })).toBe(false);
  });

  it('reads a depth window as one range of distances', () => {
    expect(closureRange('r', { minDepth: 2, maxDepth: 3 })).toEqual({
      pk: 'N#r',
      sk: { between: ['D#002#', 'D#003#~'] },
    });
    expect(closureRange('r', { minDepth: 0, maxDepth: null }, 'D#001#c')).toEqual({
      pk: 'N#r',
      sk: { between: ['D#001#', 'D#999#~'] },
      after: 'D#001#c',
    });
  });

  it('sorts rows by distance, then id, inside the range of their distance', () => {
    const [lo, hi] = (closureRange('r', { minDepth: 1, maxDepth: 1 }).sk as { between: [string, string] }).between;
    for (const id of ['a', 'zz', 'A-1.b:c']) {
      expect(closureSk(1, id) > lo && closureSk(1, id) < hi).toBe(true);
      expect(closureSk(2, id) > hi).toBe(true);
    }
  });
});
