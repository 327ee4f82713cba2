import { describe, expect, it } from 'vitest';
import { awsWriteUnits, ItemImages, unitsOf, updated } from './awsWriteUnits.js';
import { itemSize } from './itemSize.js';

const node = (bytes: number) => ({ pk: 'N#a', sk: 'NODE', name: 'a', data: 'x'.repeat(bytes) });

describe('awsWriteUnits', () => {
  it('bills 1 unit a KB rounded up, 2 in a transaction, 1 at the least', () => {
    expect(unitsOf(0, false)).toBe(1);
    expect(unitsOf(1024, false)).toBe(1);
    expect(unitsOf(1025, false)).toBe(2);
    expect(unitsOf(1025, true)).toBe(4);
  });

  it('bills a put by the larger of the item it replaces and the item put', () => {
    const images = new ItemImages();
    expect(awsWriteUnits('PutCommand', { Item: node(3000) }, images)).toBe(3);
    expect(awsWriteUnits('PutCommand', { Item: node(10) }, images)).toBe(3);
    expect(awsWriteUnits('PutCommand', { Item: node(10) }, images)).toBe(1);
  });

  it('bills an update by the item it read before, and the item after', () => {
    const images = new ItemImages();
    images.saw([node(1500)]);
    const rename = {
      Key: { pk: 'N#a', sk: 'NODE' },
      UpdateExpression: 'SET #n0 = :v0 ADD #n1 :v1',
      ExpressionAttributeNames: { '#n0': 'name', '#n1': 'version' },
      ExpressionAttributeValues: { ':v0': 'b', ':v1': 1 },
    };
    expect(awsWriteUnits('TransactWriteCommand', { TransactItems: [{ Update: rename }] }, images)).toBe(4);
    const shrink = { ...rename, UpdateExpression: 'REMOVE #n0', ExpressionAttributeNames: { '#n0': 'data' } };
    expect(awsWriteUnits('UpdateCommand', shrink, images)).toBe(2);
    expect(awsWriteUnits('UpdateCommand', shrink, images)).toBe(1);
  });

  it('bills an item never seen by what the write sends, and a condition check as a transactional write', () => {
    const images = new ItemImages();
    const check = { ConditionCheck: { Key: { pk: 'N#b', sk: 'NODE' }, ConditionExpression: 'attribute_exists(pk)' } };
    const remove = { Delete: { Key: { pk: 'N#c', sk: 'NODE' } } };
    images.saw([{ pk: 'N#c', sk: 'NODE', data: 'y'.repeat(2100) }]);
    expect(awsWriteUnits('TransactWriteCommand', { TransactItems: [check, remove] }, images)).toBe(2 + 6);
    expect(
      awsWriteUnits('BatchWriteCommand', { RequestItems: { t: [{ PutRequest: { Item: node(5) } }] } }, images),
    ).toBe(1);
    expect(awsWriteUnits('GetCommand', { Key: { pk: 'N#a', sk: 'NODE' } }, images)).toBe(0);
  });

  it('applies the update forms the transaction builder writes', () => {
    const before = { pk: 'p', sk: 's', a: 1, b: 'old', c: new Set(['x', 'y']), gone: 'z' };
    const after = updated(before, {
      UpdateExpression: 'SET #b = :b, #d = :d ADD #a :one, #c :more REMOVE #gone DELETE #c :less',
      ExpressionAttributeNames: { '#a': 'a', '#b': 'b', '#c': 'c', '#d': 'd', '#gone': 'gone' },
      ExpressionAttributeValues: {
        ':b': 'new',
        ':d': { k: 1 },
        ':one': 1,
        ':more': new Set(['w']),
        ':less': new Set(['x']),
      },
    });
    expect(after).toEqual({ pk: 'p', sk: 's', a: 2, b: 'new', c: new Set(['y', 'w']), d: { k: 1 } });
    expect(itemSize(after)).toBeLessThan(itemSize({ ...before, d: { k: 1 } }));
  });
});
