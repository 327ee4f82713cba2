import { describe, expect, it } from 'vitest';
import { isTreeError } from '../errors.js';
import type { JsonObject } from './treeStore.js';
import { checkData, checkName, MAX_DATA_NESTING } from './validation.js';

const refusal = (check: () => void): string => {
  try {
    check();
  } catch (error) {
    if (isTreeError(error, 'BAD_USER_INPUT')) return error.message;
    throw error;
  }
  throw new Error('accepted');
};

/** `levels` levels of `{ "a": … }`, the outermost object included, around `inner`. */
const nested = (levels: number, inner: unknown = 1): JsonObject => {
  let value: unknown = inner;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value as JsonObject;
};

describe('checkData', () => {
  it('takes what DynamoDB stores', () => {
    for (const data of [
      {},
      { n: 0, i: Number.MAX_SAFE_INTEGER, j: -Number.MAX_SAFE_INTEGER, f: 1.5e-130, g: -3.25 },
      { s: 'é 😀 \u0000 text', list: [1, 'two', null, true, { x: [] }], empty: '' },
      nested(MAX_DATA_NESTING),
    ]) {
      expect(() => checkData(data)).not.toThrow();
    }
  });

  it('refuses numbers DynamoDB cannot store exactly', () => {
    expect(refusal(() => checkData({ x: 1e200 }))).toMatch(/^data\.x is a number DynamoDB cannot store exactly/);
    // eslint-disable-next-line no-loss-of-precision -- 2^53 + 1, which a double cannot hold: the case under test
    expect(refusal(() => checkData({ x: 9007199254740993 }))).toMatch(/cannot store exactly/);
    expect(refusal(() => checkData({ x: [1, 5e-324] }))).toMatch(/^data\.x\[1\] is a number/);
  });

  it('refuses empty and __proto__ keys, and ill-formed Unicode', () => {
    expect(refusal(() => checkData({ '': 1 }))).toMatch(/has a key/);
    expect(refusal(() => checkData(JSON.parse('{"a": {"__proto__": {"polluted": true}}}') as JsonObject))).toMatch(
      /^data\.a has a key/,
    );
    expect(refusal(() => checkData({ s: 'half \uD800 a pair' }))).toMatch(/well-formed Unicode/);
    expect(refusal(() => checkData({ ['\uDC00']: 1 }))).toMatch(/has a key/);
  });

  it('refuses nesting past the DynamoDB limit, however deep, without overflowing the stack', () => {
    expect(refusal(() => checkData(nested(MAX_DATA_NESTING + 1)))).toMatch(/nests deeper than 31 levels/);
    expect(refusal(() => checkData(nested(100_000)))).toMatch(/nests deeper than 31 levels/);
    let list: unknown = 1;
    for (let i = 0; i < 100_000; i++) list = [list];
    expect(refusal(() => checkData({ list } as JsonObject))).toMatch(/nests deeper/);
  });

  it('still caps the serialized size', () => {
    expect(refusal(() => checkData({ s: 'x'.repeat(70 * 1024) }))).toMatch(/at most 65536 bytes/);
  });
});

describe('checkName', () => {
  it('refuses control characters and lone surrogates', () => {
    expect(checkName('Kitchen & garden 😀')).toBe('Kitchen & garden 😀');
    for (const name of ['tab\there', 'line\nbreak', 'nul\u0000', 'c1\u0085', 'half \uD83D']) {
      expect(refusal(() => checkName(name))).toMatch(/well-formed Unicode without control characters/);
    }
  });
});
