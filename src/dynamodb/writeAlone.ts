import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TransactItem } from './transactWrite.js';
import { callDynamo } from './serviceErrors.js';
import { TreeError } from '../errors.js';
import { backoffDelay, sleep } from './backoff.js';
import { CONTENTION_BACKOFF, CONTENTION_WAIT_MS } from './transactWrite.js';

/**
 * One action of a TransactionBuilder (its Put, Update or Delete, conditions included) sent on
 * its own, as PutItem, UpdateItem or DeleteItem: for an item that few transactions name, so that
 * writers meeting on it are serialized by DynamoDB instead of cancelling each other's
 * transactions. On AWS a write alone is refused while a transaction in flight names its item
 * (TransactionConflictException): it is tried again with backoff, for up to CONTENTION_WAIT_MS.
 * False when its condition failed; nothing was written then.
 */
export async function writeAlone(doc: DynamoDBDocumentClient, action: TransactItem | undefined): Promise<boolean> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await writeOnce(doc, action);
    } catch (error) {
      const conflict = (error as { name?: string }).name === 'TransactionConflictException';
      if (!conflict) throw error;
      if (Date.now() - started > CONTENTION_WAIT_MS)
        throw new TreeError('CONFLICT', 'transactions in flight kept naming the item this write changes; try again');
      await sleep(backoffDelay(attempt, CONTENTION_BACKOFF.baseMs, CONTENTION_BACKOFF.capMs));
    }
  }
}

async function writeOnce(doc: DynamoDBDocumentClient, action: TransactItem | undefined): Promise<boolean> {
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
