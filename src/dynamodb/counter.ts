import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Key } from './keys.js';
import { callDynamo } from './serviceErrors.js';

/**
 * Adds one to the number attribute `attribute` of item `key` (created at 1 when absent) and
 * answers the new value: DynamoDB's atomic counter, one UpdateItem with no condition, so no
 * two calls ever get the same value and none is refused for another's.
 */
export async function nextCount(
  doc: DynamoDBDocumentClient,
  table: string,
  key: Key,
  attribute: string,
): Promise<number> {
  const out = await callDynamo(() =>
    doc.send(
      new UpdateCommand({
        TableName: table,
        Key: key,
        UpdateExpression: 'ADD #count :one',
        ExpressionAttributeNames: { '#count': attribute },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    ),
  );
  return Number(out.Attributes?.[attribute]);
}
