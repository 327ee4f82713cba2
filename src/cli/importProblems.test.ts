import { describe, expect, it } from 'vitest';
import { characterNamed, described, excerpt, jsonExcerpt, quoted } from './importProblems.js';

describe('excerpt', () => {
  it('keeps a value of up to 40 characters, and cuts a longer one with …', () => {
    expect(excerpt('short')).toBe('short');
    expect(excerpt('a'.repeat(40))).toBe('a'.repeat(40));
    expect(excerpt('a'.repeat(41))).toBe(`${'a'.repeat(40)}…`);
    expect(quoted('b'.repeat(300), 10)).toBe(`"${'b'.repeat(10)}…"`);
  });

  it('counts characters, not UTF-16 units: a 4-byte character is never cut in half', () => {
    expect(excerpt('😀'.repeat(50))).toBe(`${'😀'.repeat(40)}…`);
  });

  it('shows control characters and lone surrogates escaped, so that a problem stays on one line', () => {
    expect(excerpt('a\tb\nc\r\u0000\u007f\u0085')).toBe('a\\tb\\nc\\r\\u0000\\u007F\\u0085');
    expect(excerpt('x\ud800y\udc00')).toBe('x\\uD800y\\uDC00');
    expect(excerpt('é 😀 "quoted"')).toBe('é 😀 "quoted"');
  });
});

describe('described', () => {
  it('names the kind of a JSON value, with an excerpt of it', () => {
    expect(described(undefined)).toBe('nothing');
    expect(described(null)).toBe('null');
    expect(described('text')).toBe('a string: "text"');
    expect(described(7)).toBe('a number: 7');
    expect(described(true)).toBe('a boolean: true');
    expect(described([1, 2])).toBe('an array: [1,2]');
    expect(described({ k: 'v'.repeat(60) })).toBe(`an object: {"k":"${'v'.repeat(34)}…`);
  });

  it('writes numbers JSON has no text for as they are', () => {
    expect(jsonExcerpt({ n: Infinity })).toBe('{"n":"Infinity"}');
  });
});

describe('characterNamed', () => {
  it('names a character that has no place in a value', () => {
    expect(characterNamed(' ')).toBe('a space');
    expect(characterNamed('\t')).toBe('a tab');
    expect(characterNamed('\n')).toBe('a line break');
    expect(characterNamed('\u0001')).toBe('a control character (U+0001)');
    expect(characterNamed('\udc00')).toBe('a lone surrogate (U+DC00)');
    expect(characterNamed('-')).toBe('"-"');
  });
});
