import { describe, expect, it } from 'vitest';
import { isTreeError } from '../errors.js';
import { globalIds, parseGlobalId } from './globalId.js';

const tree = globalIds('TreeNode');
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The BAD_USER_INPUT a decode throws: its message and details. */
function refusal(decode: () => unknown): { message: string; details: unknown } {
  try {
    decode();
  } catch (error) {
    if (isTreeError(error, 'BAD_USER_INPUT')) return { message: error.message, details: error.details };
    throw error;
  }
  throw new Error('expected BAD_USER_INPUT');
}

describe('global ids', () => {
  it("are the base64 of `<TypeName>:<id>`, graphql-relay's convention", () => {
    expect(tree.encode('laptops')).toBe('VHJlZU5vZGU6bGFwdG9wcw==');
    expect(tree.encode('a:b')).toBe(base64('TreeNode:a:b'));
    expect(tree.decode(tree.encode('laptops'))).toBe('laptops');
    // An id may hold colons: the type name ends at the first.
    expect(tree.decode(tree.encode('a:b:c'))).toBe('a:b:c');
    expect(parseGlobalId(base64('User:42'))).toEqual({ typeName: 'User', id: '42' });
  });

  it('refuses what is no global id of a TreeNode, naming the field, what it must be and what it got', () => {
    const shape = 'TreeNode\'s global id (base64 of "TreeNode:<id>", <id> matching ^[A-Za-z0-9_.:-]{1,64}$)';
    expect(refusal(() => tree.decode('laptops', 'parentId'))).toEqual({
      message: `parentId must be a ${shape}, got "laptops"`,
      details: { field: 'parentId' },
    });
    expect(refusal(() => tree.decode(base64('User:42'), 'newParentId'))).toEqual({
      message: `newParentId must be a ${shape}, got the global id of a User: "${base64('User:42')}"`,
      details: { field: 'newParentId' },
    });
    for (const text of ['', 'TreeNode:', ':laptops', 'TreeNode:not an id', 'TreeNode:x\u00e9', 'laptops']) {
      expect(refusal(() => tree.decode(base64(text))).details, text).toEqual({ field: 'id' });
    }
    // Not base64 (Buffer would skip the characters), and base64 without its padding.
    expect(refusal(() => tree.decode(`${tree.encode('laptops')}!`)).details).toEqual({ field: 'id' });
    expect(refusal(() => tree.decode(tree.encode('laptops').replace(/=+$/, ''))).details).toEqual({ field: 'id' });
  });

  it("reads one of another type as null when asked (Relay's node(id:)), and still refuses a malformed one", () => {
    expect(tree.decode(base64('User:42'), 'id', 'null')).toBeNull();
    expect(tree.decode(tree.encode('laptops'), 'id', 'null')).toBe('laptops');
    expect(refusal(() => tree.decode('laptops', 'id', 'null')).details).toEqual({ field: 'id' });
  });
});
