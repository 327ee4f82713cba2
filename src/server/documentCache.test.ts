import { describe, expect, it } from 'vitest';
import { documentCache } from './documentCache.js';

describe('documentCache', () => {
  it('makes a text once while it stays among the most recently used, and forgets the least recent first', () => {
    const made: string[] = [];
    const cache = documentCache<{ text: string }>(2);
    const make = (text: string) => {
      made.push(text);
      return { text };
    };
    const a = cache.get('a', make);
    expect(cache.get('a', make)).toBe(a);
    cache.get('b', make);
    cache.get('a', make); // a is now the most recent
    cache.get('c', make); // b goes
    expect(cache.size).toBe(2);
    expect(cache.get('a', make)).toBe(a);
    cache.get('b', make);
    expect(made).toEqual(['a', 'b', 'c', 'b']);
  });
});
