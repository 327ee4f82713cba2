import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { nativeOutput, nativeRecord } from './nativeValues.js';

/** Items of every kind a table may hold, as DynamoDB sends them. */
const ITEMS: Array<Record<string, AttributeValue>> = [
  marshall({ pk: 'N#a', sk: 'NODE', id: 'a', version: 3, childCount: 0, path: ['r', 'b'], name: '' }),
  marshall({ data: { nested: { list: [1, 'two', true, null, { x: -2.5 }], empty: {}, none: [] } } }),
  { big: { N: '12345678901234567890' }, small: { N: '-9007199254740991' }, fraction: { N: '0.1' } },
  { strings: { SS: ['a', 'b'] }, numbers: { NS: ['1', '2'] }, bytes: { B: new Uint8Array([1, 2]) } },
  { yes: { BOOL: true }, no: { BOOL: false }, nothing: { NULL: true } },
];

describe('nativeRecord', () => {
  it('gives what util-dynamodb gives, for every kind of value', () => {
    for (const item of ITEMS) expect(nativeRecord(structuredClone(item))).toEqual(unmarshall(structuredClone(item)));
    expect(nativeRecord(ITEMS[2]!).big).toBe(12345678901234567890n);
    expect(nativeRecord(ITEMS[3]!).strings).toEqual(new Set(['a', 'b']));
  });

  it('keeps a key named __proto__ as a property, not as the prototype', () => {
    const item = JSON.parse('{"data":{"M":{"__proto__":{"M":{"polluted":{"S":"yes"}}}}}}') as Record<
      string,
      AttributeValue
    >;
    const data = nativeRecord(item).data as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(['__proto__']);
    expect((data as { polluted?: string }).polluted).toBeUndefined();
  });
});

describe('nativeOutput', () => {
  it('converts the members a command names and leaves the others', () => {
    const output = {
      Items: [ITEMS[0]!, ITEMS[1]!],
      LastEvaluatedKey: marshall({ pk: 'N#a', sk: 'NODE' }),
      Count: 2,
      ConsumedCapacity: { CapacityUnits: 1 },
    };
    expect(nativeOutput(output, { Items: { '*': {} }, LastEvaluatedKey: {} })).toEqual({
      Items: [unmarshall(ITEMS[0]!), unmarshall(ITEMS[1]!)],
      LastEvaluatedKey: { pk: 'N#a', sk: 'NODE' },
      Count: 2,
      ConsumedCapacity: { CapacityUnits: 1 },
    });
  });

  it('walks maps of lists by their tables (a BatchGetItem answer)', () => {
    const output = { Responses: { t: [ITEMS[0]!] }, UnprocessedKeys: { t: { Keys: [marshall({ pk: 'x' })] } } };
    const nodes = { Responses: { '*': { '*': {} } }, UnprocessedKeys: { '*': { Keys: { '*': {} } } } };
    expect(nativeOutput(output, nodes)).toEqual({
      Responses: { t: [unmarshall(ITEMS[0]!)] },
      UnprocessedKeys: { t: { Keys: [{ pk: 'x' }] } },
    });
    expect(nativeOutput({ Item: undefined }, { Item: {} })).toEqual({ Item: undefined });
  });
});
