import { describe, expect, it } from 'vitest';
import { keyQuery } from './keyQuery.js';

describe('keyQuery', () => {
  it('reads a whole item collection', () => {
    expect(keyQuery('t', { pk: 'JOBS' })).toEqual({
      TableName: 't',
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': 'pk' },
      ExpressionAttributeValues: { ':pk': 'JOBS' },
    });
  });

  it('narrows by a sort key prefix and resumes after a sort key', () => {
    expect(keyQuery('t', { pk: 'N#a', sk: { beginsWith: 'E#' }, after: 'E#a0#b' })).toEqual({
      TableName: 't',
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': 'N#a', ':prefix': 'E#' },
      ExclusiveStartKey: { pk: 'N#a', sk: 'E#a0#b' },
    });
  });

  it('narrows by a sort key range, backwards', () => {
    expect(keyQuery('t', { pk: 'N#a', sk: { between: ['D#001#', 'D#003#~'] }, backwards: true })).toEqual({
      TableName: 't',
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lo AND :hi',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': 'N#a', ':lo': 'D#001#', ':hi': 'D#003#~' },
      ScanIndexForward: false,
    });
  });
});
