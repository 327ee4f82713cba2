import { describe, expect, it } from 'vitest';
import { itemSize, valueSize } from './itemSize.js';

describe('itemSize', () => {
  it('counts strings and names in UTF-8 bytes, not UTF-16 units', () => {
    expect(valueSize('abc')).toBe(3);
    // CJK: 3 bytes a character, 1 UTF-16 unit; an emoji: 4 bytes, 2 units.
    expect(valueSize('樹')).toBe(3);
    expect(valueSize('😀')).toBe(4);
    expect('😀'.length).toBe(2);
    expect(itemSize({ pk: 'N#a', 名: '😀😀' })).toBe(2 + 3 + 3 + 8);
  });

  it('counts numbers by their significant digits, null and booleans as 1, lists and maps as 3 and 1 an element', () => {
    expect(valueSize(1)).toBe(3);
    expect(valueSize(-12345)).toBe(5);
    expect(valueSize(1.5e-7)).toBe(3);
    expect(valueSize(null)).toBe(1);
    expect(valueSize(true)).toBe(1);
    expect(valueSize([])).toBe(3);
    expect(valueSize([null, 'ab'])).toBe(3 + 2 + 1 + 2);
    expect(valueSize({ a: { b: 'c' } })).toBe(3 + 1 + 1 + (3 + 1 + 1 + 1));
    expect(valueSize(new Set(['ab', 'c']))).toBe(3);
  });

  it('leaves out attributes left undefined, and walks deep nesting without recursion', () => {
    expect(itemSize({ pk: 'a', parentId: undefined })).toBe(3);
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(valueSize(deep)).toBe(100_000 * 4 + 1);
  });
});
