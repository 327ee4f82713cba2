import { createCipheriv, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TreeError } from '../errors.js';
import { createCursorCodec, edgeWithCursor } from './cursor.js';

const SECRET = 'secret-one';
const codec = createCursorCodec(SECRET);
const payload = { sk: 'E#a0#node-1', depth: 2, id: 'node-1' };
const valid = codec.encode(payload);

/** The error decode throws for `cursor`, asserting it is BAD_USER_INPUT and names the input. */
function rejection(cursor: string): TreeError {
  let thrown: unknown;
  try {
    codec.decode(cursor);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `decode accepted ${JSON.stringify(cursor)}`).toBeInstanceOf(TreeError);
  const error = thrown as TreeError;
  expect(error.code).toBe('BAD_USER_INPUT');
  expect(error.message).toBe(`the cursor is not one issued by this list (got "${cursor.slice(0, 40)}")`);
  return error;
}

/** Replaces the character at `index` with another base64url character. */
const flip = (text: string, index: number): string =>
  text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);

/**
 * A cursor around arbitrary JSON text, correctly sealed with the codec's secret (the same
 * construction as cursor.ts): what only someone holding the secret could produce.
 */
function sealed(json: string, tenant?: string): string {
  const key = (use: string) => createHmac('sha256', SECRET).update(use).digest();
  const plain = Buffer.from(json);
  const mac = createHmac('sha256', key('cursor mac'));
  if (tenant !== undefined) mac.update(`${tenant}\u0000`);
  const iv = mac.update(plain).digest().subarray(0, 16);
  const cipher = createCipheriv('aes-256-ctr', key('cursor seal'), iv);
  return Buffer.concat([iv, cipher.update(plain), cipher.final()]).toString('base64url');
}

describe('createCursorCodec', () => {
  it('round-trips a payload', () => {
    expect(codec.decode(valid)).toEqual(payload);
    expect(codec.decode(codec.encode({}))).toEqual({});
    expect(codec.decode(codec.encode({ nested: { a: [1, 'b', null] } }))).toEqual({ nested: { a: [1, 'b', null] } });
  });

  it('is deterministic and valid in any codec that shares the secret', () => {
    expect(createCursorCodec(SECRET).encode(payload)).toBe(valid);
    expect(createCursorCodec(SECRET).decode(valid)).toEqual(payload);
  });

  it('is URL-safe base64url, and shows nothing of its payload', () => {
    expect(valid).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(sealed(JSON.stringify(payload))).toBe(valid);
    const bytes = Buffer.from(valid, 'base64url').toString('latin1');
    for (const shown of ['node-1', 'E#a0', '"sk"', 'depth']) expect(bytes).not.toContain(shown);
  });

  it('quotes at most 40 characters of a rejected cursor', () => {
    const error = rejection('x'.repeat(500));
    expect(error.message).toContain(`(got "${'x'.repeat(40)}")`);
  });

  it('rejects a cursor sealed with another secret', () => {
    rejection(createCursorCodec('secret-two').encode(payload));
  });

  it('rejects a flipped character anywhere, in the IV or in the sealed payload', () => {
    for (const index of [0, 10, 21, 22, Math.floor(valid.length / 2), valid.length - 2]) {
      rejection(flip(valid, index));
    }
  });

  it('rejects a truncated or extended cursor, and one that is only an IV', () => {
    rejection(valid.slice(0, -3));
    rejection(`${valid}AAAA`);
    rejection(valid.slice(0, 22));
  });

  it('rejects what is not canonical base64url: padding, dots, other alphabets', () => {
    rejection(`${valid}=`);
    rejection(`${valid}.`);
    rejection(`${valid.slice(0, 10)}.${valid.slice(10)}`);
    rejection(`${valid.slice(0, 10)}+${valid.slice(11)}`);
    rejection(`${valid.slice(0, 10)}/${valid.slice(11)}`);
  });

  it("binds a tenant's cursor to that tenant", () => {
    const acme = codec.forTenant('acme');
    const cursor = acme.encode(payload);
    expect(cursor).toBe(sealed(JSON.stringify(payload), 'acme'));
    expect(acme.decode(cursor)).toEqual(payload);
    expect(createCursorCodec(SECRET).forTenant('acme').decode(cursor)).toEqual(payload);
    rejection(cursor);
    expect(() => codec.forTenant('other').decode(cursor)).toThrow(TreeError);
    expect(() => acme.decode(valid)).toThrow(TreeError);
  });

  it('rejects random garbage', () => {
    for (const garbage of ['', ' ', 'garbage', '!!!.???', '%00.%00', '\u0000', 'null', '{}', '🌳.🌳', 'a.b']) {
      rejection(garbage);
    }
  });

  it('rejects a correctly sealed payload that is not a JSON object', () => {
    for (const json of ['[1,2]', '[]', '42', '"text"', 'null', 'true', '{not json', '']) {
      rejection(sealed(json));
    }
  });

  it('rejects an over-long cursor, even a correctly sealed one', () => {
    const long = codec.encode({ pad: 'p'.repeat(20_000) });
    expect(long.length).toBeGreaterThan(16_384);
    rejection(long);
  });
});

describe('edgeWithCursor', () => {
  it('signs the cursor only when it is read, and once', () => {
    let signed = 0;
    const counting = { ...codec, encode: (fields: Record<string, unknown>) => (signed++, codec.encode(fields)) };
    const edge = edgeWithCursor(counting, { t: 'c', s: 'E#a' }, { id: 'a' });
    expect(edge.node).toEqual({ id: 'a' });
    expect(signed).toBe(0);
    expect(codec.decode(edge.cursor)).toEqual({ t: 'c', s: 'E#a' });
    expect(edge.cursor).toBe(edge.cursor);
    expect(signed).toBe(1);
  });
});
