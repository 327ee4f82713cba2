import { describe, expect, it } from 'vitest';
import { BATCH_GET_LIMIT, chunkKeys } from './batchGet.js';
import { keyString } from './keys.js';

const key = (i: number) => ({ pk: `N#${i}`, sk: 'NODE' });

describe('chunkKeys', () => {
  it('returns no chunk for no keys', () => {
    expect(chunkKeys([])).toEqual([]);
  });

  it('chunks at the BatchGetItem limit of 100, keeping the order', () => {
    expect(BATCH_GET_LIMIT).toBe(100);
    const keys = Array.from({ length: 250 }, (_, i) => key(i));
    const chunks = chunkKeys(keys);
    expect(chunks.map((c) => c.length)).toEqual([100, 100, 50]);
    expect(chunks.flat()).toEqual(keys);
  });

  it('keeps exactly 100 keys in one chunk', () => {
    expect(chunkKeys(Array.from({ length: 100 }, (_, i) => key(i))).map((c) => c.length)).toEqual([100]);
    expect(chunkKeys(Array.from({ length: 101 }, (_, i) => key(i))).map((c) => c.length)).toEqual([100, 1]);
  });

  it('drops duplicates (BatchGetItem rejects them), keeping first-seen order', () => {
    const keys = [key(1), key(2), key(1), key(3), key(2)];
    expect(chunkKeys(keys)).toEqual([[key(1), key(2), key(3)]]);
  });

  it('counts the limit after removing duplicates', () => {
    const keys = Array.from({ length: 300 }, (_, i) => key(i % 150));
    expect(chunkKeys(keys).map((c) => c.length)).toEqual([100, 50]);
  });

  it('tells keys apart by both attributes', () => {
    const keys = [
      { pk: 'N#a', sk: 'NODE' },
      { pk: 'N#a', sk: 'E#a0#b' },
      { pk: 'N#aNODE', sk: '' },
    ];
    expect(chunkKeys(keys)).toEqual([keys]);
    expect(new Set(keys.map(keyString)).size).toBe(3);
  });

  it('sends only the key attributes', () => {
    const withExtra = { pk: 'N#a', sk: 'NODE', name: 'extra' };
    expect(chunkKeys([withExtra])).toEqual([[{ pk: 'N#a', sk: 'NODE' }]]);
  });

  it('honours another chunk size', () => {
    expect(chunkKeys([key(1), key(2), key(3)], 2)).toEqual([[key(1), key(2)], [key(3)]]);
  });
});
