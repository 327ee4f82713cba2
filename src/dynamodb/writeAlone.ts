import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TransactItem } from './transactWrite.js';
import { callDynamo } from './serviceErrors.js';

/**
 * One action of a TransactionBuilder (its Put, Update or Delete, conditions included) sent on
 * its own, as PutItem, UpdateItem or DeleteItem: for an item that no transaction names, so that
 * writers meeting on it are serialized by DynamoDB instead of cancelling each other's
 * transactions (TransactionConflict). False when its condition failed; nothing was written then.
 */
export async function writeAlone(doc: DynamoDBDocumentClient, action: TransactItem | undefined): Promise<boolean> {
  const command = action?.Put
    ? new PutCommand(action.Put)
    : action?.Update
      ? new UpdateCommand(action.Update)
      : action?.Delete
        ? new DeleteCommand(action.Delete)
        : undefined;
  if (!command) throw new Error('writeAlone takes one Put, Update or Delete action');
  try {
    await callDynamo(() => doc.send(command as UpdateCommand));
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
