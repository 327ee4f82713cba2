import { describe, expect, it } from 'vitest';
import { prng } from '../../../../test/support/prng.js';
import { positionBetween } from './position.js';

/** The keys' random tails from a seeded PRNG, so that their lengths are the same every run. */
const random = prng(20_261_123);

/** Asserts before < key < after as plain strings (null: no bound) and returns the key. */
function between(before: string | null, after: string | null): string {
  const key = positionBetween(before, after, random);
  if (before !== null) expect(key > before, `${key} > ${before}`).toBe(true);
  if (after !== null) expect(key < after, `${key} < ${after}`).toBe(true);
  return key;
}

const ascending = (keys: readonly string[]) => keys.every((key, i) => i === 0 || keys[i - 1]! < key);

describe('positionBetween', () => {
  it('gives a first key with no neighbours', () => {
    const key = positionBetween(null, null);
    expect(key).toMatch(/^[0-9A-Za-z]+$/);
  });

  it('places keys before the first and after the last', () => {
    const first = positionBetween(null, null);
    const before = between(null, first);
    const after = between(first, null);
    expect(ascending([before, first, after])).toBe(true);
  });

  it('places a key strictly between two neighbours', () => {
    const a = positionBetween(null, null);
    const c = between(a, null);
    const b = between(a, c);
    expect(ascending([a, b, c])).toBe(true);
  });

  it('keeps appends, prepends and middle inserts strictly ordered', () => {
    const keys = [positionBetween(null, null)];
    for (let i = 0; i < 100; i++) {
      keys.push(between(keys[keys.length - 1]!, null));
      keys.unshift(between(null, keys[0]!));
      const mid = Math.floor(keys.length / 2);
      keys.splice(mid, 0, between(keys[mid - 1]!, keys[mid]!));
    }
    expect(ascending(keys)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('stays ordered and short under 200 inserts at one spot (always right after the first key)', () => {
    const keys = [positionBetween(null, null)];
    keys.push(between(keys[0]!, null));
    for (let i = 0; i < 200; i++) {
      keys.splice(1, 0, between(keys[0]!, keys[1]!));
    }
    expect(keys).toHaveLength(202);
    expect(ascending(keys)).toBe(true);
    // Repeated halving of one gap grows the key by about one character every five or six
    // inserts in base62; 200 inserts must stay far from DynamoDB's 1 KB sort-key limit.
    expect(Math.max(...keys.map((k) => k.length))).toBeLessThanOrEqual(60);
  });

  it('stays ordered and short under 200 inserts always right before the last key', () => {
    const keys = [positionBetween(null, null)];
    keys.push(between(keys[0]!, null));
    for (let i = 0; i < 200; i++) {
      keys.splice(keys.length - 1, 0, between(keys[keys.length - 2]!, keys[keys.length - 1]!));
    }
    expect(ascending(keys)).toBe(true);
    expect(Math.max(...keys.map((k) => k.length))).toBeLessThanOrEqual(60);
  });

  it('keeps 1000 appends short', () => {
    let last = positionBetween(null, null);
    for (let i = 0; i < 1000; i++) last = between(last, null);
    // The integer part grows slowly; the random tail adds 4 digits.
    expect(last.length).toBeLessThanOrEqual(10);
  });

  it('gives two writers placing a node in the same slot different keys, both in the slot', () => {
    const low = positionBetween(null, null);
    const high = positionBetween(low, null);
    const keys = new Set(Array.from({ length: 50 }, () => positionBetween(low, high)));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(key > low && key < high).toBe(true);
      expect(key.endsWith('0')).toBe(false);
    }
    expect(new Set(Array.from({ length: 50 }, () => positionBetween(high, null))).size).toBe(50);
  });

  it('drops the random tail when it would pass the upper neighbour', () => {
    const low = positionBetween(null, null, () => 0);
    const high = positionBetween(low, null, () => 0);
    const key = positionBetween(low, high, () => 0.999);
    expect(key > low && key < high).toBe(true);
  });

  it('returns the shared position when both neighbours tie (siblings then sort by id)', () => {
    const shared = positionBetween(null, null);
    expect(positionBetween(shared, shared)).toBe(shared);
  });
});
