import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { keyQuery, type KeyQuery } from '../../../dynamodb/keyQuery.js';

/** Which items of a key range a read or a count keeps: those whose kept `path` holds the node `id` at index `at`. */
export interface Through {
  at: number;
  id: string;
}

/**
 * Pure. The input of a Query, or of a count (countItems), of the projection items in `query`'s
 * key range. With `through`, only the items whose kept path holds that node at that index, that
 * is the items of its descendants: a key built of hashed tokens (an encoded path, a document key)
 * can collide with another node's, and the path each item keeps is what tells them apart. The
 * filter costs no request: DynamoDB returns or counts what it keeps.
 */
export function throughQuery(table: string, query: KeyQuery, through?: Through): QueryCommandInput {
  const base = keyQuery(table, query);
  if (!through) return base;
  if (!Number.isInteger(through.at) || through.at < 0) throw new Error(`a path index, got ${through.at}`);
  return {
    ...base,
    FilterExpression: `#path[${through.at}] = :through`,
    ExpressionAttributeNames: { ...base.ExpressionAttributeNames, '#path': 'path' },
    ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ':through': through.id },
  };
}
