import { describe, expect, it } from 'vitest';
import { startAmong } from './engine/changes/changeLog.js';
import { changeCursors } from './cursor.js';
import { createCursorCodec } from './cursor.js';

const refused = { code: 'BAD_USER_INPUT', message: 'after is not a cursor of treeChanges' };

describe('change cursors', () => {
  const acme = changeCursors(createCursorCodec('secret').forTenant('acme'));
  const cursor = { rootId: 'r', seq: 9, at: 1, skip: [11], watch: { nodeId: 'w', path: ['r', 'p'] } };

  it('give back what they hold, for the tenant they were signed for only', () => {
    expect(acme.decode(acme.encode(cursor))).toEqual(cursor);
    const globex = changeCursors(createCursorCodec('secret').forTenant('globex'));
    expect(() => globex.decode(acme.encode(cursor))).toThrow(expect.objectContaining(refused));
  });

  it("refuses another list's cursor and a watch whose path is not of the cursor's tree", () => {
    const codec = createCursorCodec('secret').forTenant('acme');
    expect(() => acme.decode(codec.encode({ t: 'd', o: 'r', w: [1, null] }))).toThrow(expect.objectContaining(refused));
    const moved = { ...cursor, watch: { nodeId: 'w', path: ['other'] } };
    expect(() => acme.decode(acme.encode(moved))).toThrow(expect.objectContaining(refused));
  });
});

describe('where a reader starts', () => {
  it('before the first number missing among the records, skipping those above it', () => {
    expect(startAmong([])).toEqual({ seq: 0, skip: [] });
    expect(startAmong([7, 8, 9])).toEqual({ seq: 9, skip: [] });
    expect(startAmong([7, 8, 9, 11, 13])).toEqual({ seq: 9, skip: [11, 13] });
  });
});
