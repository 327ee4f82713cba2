import { describe, expect, it } from 'vitest';
import { keyQuery, withProjection } from './keyQuery.js';

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

describe('withProjection', () => {
  it('reads the own attributes and the ones named, each once, through placeholders', () => {
    const query = keyQuery('t', { pk: 'N#a', sk: { beginsWith: 'D#' } });
    expect(withProjection(query, ['id', 'name', 'sk'], ['sk', 'mark'])).toEqual({
      ...query,
      ProjectionExpression: '#a0, #a1, #a2, #a3',
      ExpressionAttributeNames: {
        ...{ '#pk': 'pk', '#sk': 'sk', '#a0': 'sk' },
        ...{ '#a1': 'mark', '#a2': 'id', '#a3': 'name' },
      },
    });
    // Neither key unless asked: the pk is the Query's own (queryItems gives it back).
    expect(withProjection(query, ['id'], []).ProjectionExpression).toBe('#a0');
  });

  it('leaves the query whole without attributes to read', () => {
    const query = keyQuery('t', { pk: 'N#a' });
    expect(withProjection(query, undefined, ['sk'])).toBe(query);
  });
});
