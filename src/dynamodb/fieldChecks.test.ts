import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decoderOf, MalformedItem } from './decodeItem.js';
import { fieldChecks } from './fieldChecks.js';

const SCHEMA = z.object({
  text: z.string(),
  count: z.number().optional(),
  flag: z.boolean().nullable(),
  kind: z.enum(['A', 'B']),
  none: z.literal('NONE').optional(),
  ids: z.array(z.string()).optional(),
  triple: z.tuple([z.string(), z.string().nullable(), z.number()]).optional(),
  data: z.record(z.string(), z.unknown()).nullish(),
  grants: z.record(z.string(), z.enum(['read', 'write'])).optional(),
  anything: z.unknown().optional(),
  values: z.array(z.unknown()).optional(),
});

const good = { text: 't', flag: null, kind: 'A' };
const VALUES: Array<Record<string, unknown>> = [
  good,
  { ...good, count: 3, flag: true, none: 'NONE', ids: ['a', 'b'], triple: ['a', null, 1], data: { x: [1] } },
  { ...good, grants: { r: 'read', s: 'write' }, anything: [1, 'x'], data: null, values: [null, 'x'] },
  { ...good, text: 1 },
  { ...good, count: '3' },
  { ...good, flag: undefined },
  { ...good, kind: 'C' },
  { ...good, none: 'SOME' },
  { ...good, ids: ['a', 2] },
  { ...good, ids: 'a' },
  { ...good, triple: ['a', 'b'] },
  { ...good, triple: ['a', 'b', 1, 2] },
  { ...good, triple: ['a', 1, 1] },
  { ...good, data: [1] },
  { ...good, data: 'x' },
  { ...good, grants: { r: 'admin' } },
  { ...good, grants: [] },
];

describe('checks derived from a schema', () => {
  it('answer as the schema does, field by field', () => {
    const checks = fieldChecks(SCHEMA);
    expect(checks.map(([name]) => name)).toEqual(Object.keys(SCHEMA.shape));
    for (const value of VALUES) {
      const passes = checks.every(([name, check]) => check(value[name]));
      expect({ value, passes }).toEqual({ value, passes: SCHEMA.safeParse(value).success });
    }
  });

  it('stand for no field of another kind: such a schema is parsed', () => {
    expect(() => fieldChecks(z.object({ id: z.string().min(1) }))).toThrow('field id');
    expect(() => fieldChecks(z.object({ there: z.unknown() }))).toThrow('field there');
    expect(() => fieldChecks(z.object({ n: z.coerce.number() }))).toThrow('field n');
    expect(() => fieldChecks(z.strictObject({ id: z.string() }))).toThrow('strict object');
    expect(fieldChecks(z.looseObject({ id: z.string() })).map(([name]) => name)).toEqual(['id']);
    expect(() => fieldChecks(z.object({ n: z.string().transform(Number) }))).toThrow('field n');
    expect(() => fieldChecks(z.object({ o: z.object({ a: z.string() }) }))).toThrow('field o');
    expect(() => fieldChecks(z.object({ t: z.tuple([z.string(), z.string().optional()]) }))).toThrow('field t');
  });

  it('decode an item that passes them as it is, and explain one that fails them by the schema', () => {
    const decode = decoderOf(SCHEMA);
    const item = { pk: 'P', sk: 'S', ...good, extra: 1 };
    expect(decode(item)).toBe(item);
    const bad = { pk: 'P', sk: 'S', ...good, ids: ['a', 2] };
    expect(() => decode(bad)).toThrow(new MalformedItem(bad, 'ids.1: Invalid input: expected string, received number'));
    expect(() => decode(bad)).toThrow('item P S is malformed: ids.1:');
  });
});
