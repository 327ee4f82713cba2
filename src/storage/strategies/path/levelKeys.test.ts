import { describe, expect, it } from 'vitest';
import { encodePath, idToken, levelItem, levelKey, levelQuery, TOKEN_LENGTH } from './levelKeys.js';

describe('level keys', () => {
  it('encodes each id as a fixed-length token, so 64 levels of 64-character ids fit a sort key', () => {
    expect(idToken('a')).toHaveLength(TOKEN_LENGTH);
    const deep = Array.from({ length: 65 }, (_, i) => `${i}`.padStart(64, 'x'));
    expect(Buffer.byteLength(encodePath(deep))).toBeLessThanOrEqual(1024);
  });

  it("keys a node in its tree's collection at its absolute depth, by its encoded path", () => {
    expect(levelKey(['r', 'a'], 'b')).toEqual({ pk: 'L#r#2', sk: encodePath(['r', 'a', 'b']) });
    expect(levelKey([], 'r')).toEqual({ pk: 'L#r#0', sk: encodePath(['r']) });
  });

  it('keeps the real path on the item, to detect a token collision', () => {
    expect(levelItem(['r', 'a'], 'b')).toEqual({ ...levelKey(['r', 'a'], 'b'), id: 'b', path: ['r', 'a'] });
  });

  it("queries one depth below a node: that depth's collection, sort keys beginning with the node's path", () => {
    expect(levelQuery(['r'], 'a', 2)).toEqual({ pk: 'L#r#3', sk: { beginsWith: encodePath(['r', 'a']) } });
    expect(levelQuery([], 'r', 1, 'resume')).toEqual({
      pk: 'L#r#1',
      sk: { beginsWith: encodePath(['r']) },
      after: 'resume',
    });
  });
});
