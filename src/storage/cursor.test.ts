import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TreeError } from '../errors.js';
import { createCursorCodec, edgeWithCursor } from './cursor.js';

const SECRET = 'secret-one';
const codec = createCursorCodec(SECRET);
const payload = { sk: 'E#a0#node-1', depth: 2, id: 'node-1' };
const valid = codec.encode(payload);
const [validBody = '', validMac = ''] = valid.split('.');

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
 * A cursor around arbitrary JSON text, correctly signed with the codec's secret (the same
 * construction as cursor.ts): what only someone holding the secret could produce.
 */
function signed(json: string): string {
  const body = Buffer.from(json).toString('base64url');
  const mac = createHmac('sha256', SECRET).update(body).digest().subarray(0, 16).toString('base64url');
  return `${body}.${mac}`;
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

  it('is URL-safe: a base64url body, a dot, a base64url mac', () => {
    expect(valid).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(signed(JSON.stringify(payload))).toBe(valid);
  });

  it('quotes at most 40 characters of a rejected cursor', () => {
    const error = rejection(`${'x'.repeat(500)}.${'y'.repeat(20)}`);
    expect(error.message).toContain(`(got "${'x'.repeat(40)}")`);
  });

  it('rejects a cursor signed with another secret', () => {
    rejection(createCursorCodec('secret-two').encode(payload));
  });

  it('rejects a flipped character in the body', () => {
    for (const index of [0, Math.floor(validBody.length / 2), validBody.length - 1]) {
      rejection(`${flip(validBody, index)}.${validMac}`);
    }
  });

  it('rejects a flipped character in the mac', () => {
    for (const index of [0, Math.floor(validMac.length / 2), validMac.length - 1]) {
      rejection(`${validBody}.${flip(validMac, index)}`);
    }
  });

  it('rejects a truncated or extended mac', () => {
    rejection(`${validBody}.${validMac.slice(0, -3)}`);
    rejection(`${validBody}.${validMac}AAAA`);
  });

  it('rejects a cursor without its dot, or with an empty part or an extra part', () => {
    rejection(`${validBody}${validMac}`);
    rejection(`${validBody}.`);
    rejection(`.${validMac}`);
    rejection('.');
    rejection(`${valid}.`);
    rejection(`${valid}.${validMac}`);
  });

  it('rejects random garbage', () => {
    for (const garbage of ['', ' ', 'garbage', '!!!.???', '%00.%00', '\u0000', 'null', '{}', '🌳.🌳', 'a.b']) {
      rejection(garbage);
    }
  });

  it('rejects a correctly signed payload that is not a JSON object', () => {
    for (const json of ['[1,2]', '[]', '42', '"text"', 'null', 'true', '{not json', '']) {
      rejection(signed(json));
    }
  });

  it('rejects an over-long cursor, even a correctly signed one', () => {
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
