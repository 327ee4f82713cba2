import { describe, expect, it } from 'vitest';
import { canonical, sameJson } from './sameJson.js';

/** What sameJson must answer: the two values' JSON texts, keys sorted, are the same. */
const byText = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

const VALUES: unknown[] = [
  null,
  undefined,
  0,
  1,
  NaN,
  '',
  'a',
  true,
  false,
  [],
  [1, 2],
  [2, 1],
  [1, undefined],
  [1, null],
  {},
  { a: 1 },
  { a: 1, b: undefined },
  { b: 2, a: 1 },
  { a: 1, b: 2 },
  { a: { x: [1, { y: 2, z: 3 }] } },
  { a: { x: [1, { z: 3, y: 2 }] } },
  { a: { x: [1, { z: 3, y: 4 }] } },
  { a: null },
  new Set(['x']),
  new Set(['y']),
  new Date(0),
  new Date(1),
  { at: new Date(0) },
  { at: new Date(1) },
];

describe('sameJson', () => {
  it('answers what a comparison of the JSON texts with sorted keys answers, for every pair', () => {
    for (const a of VALUES) for (const b of VALUES) expect([a, b, sameJson(a, b)]).toEqual([a, b, byText(a, b)]);
  });

  it('finds equal what only the order of keys or a key left undefined sets apart', () => {
    expect(sameJson({ a: 1, b: { c: [1, 2], d: 'x' } }, { b: { d: 'x', c: [1, 2] }, a: 1, e: undefined })).toBe(true);
    expect(sameJson({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [2, 1] } })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: null })).toBe(false);
  });
});
