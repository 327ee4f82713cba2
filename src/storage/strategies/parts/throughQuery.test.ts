import { describe, expect, it } from 'vitest';
import { throughQuery } from './throughQuery.js';

describe('throughQuery', () => {
  it('counts a key range as it is', () => {
    expect(throughQuery('t', { pk: 'N#r', sk: { between: ['D#001#', 'D#003#~'] } })).toEqual({
      TableName: 't',
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lo AND :hi',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': 'N#r', ':lo': 'D#001#', ':hi': 'D#003#~' },
    });
  });

  it("keeps only the items whose kept path runs through the node, at the node's depth", () => {
    expect(throughQuery('t', { pk: 'L#r#3', sk: { beginsWith: 'abc' } }, { at: 1, id: 'a' })).toEqual({
      TableName: 't',
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      FilterExpression: '#path[1] = :through',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk', '#path': 'path' },
      ExpressionAttributeValues: { ':pk': 'L#r#3', ':prefix': 'abc', ':through': 'a' },
    });
  });

  it('refuses an index that is no index', () => {
    expect(() => throughQuery('t', { pk: 'L#r#3' }, { at: -1, id: 'a' })).toThrow('a path index, got -1');
    expect(() => throughQuery('t', { pk: 'L#r#3' }, { at: 1.5, id: 'a' })).toThrow('a path index, got 1.5');
  });
});
