import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TreeError } from '../errors.js';
import { backoffDelay, sleep } from './backoff.js';
import type { Item, Key } from './keys.js';
import { callDynamo } from './serviceErrors.js';

export const BATCH_WRITE_LIMIT = 25;
const MAX_UNPROCESSED_ROUNDS = 8;

export type WriteRequest = { put: Item & Key } | { delete: Key };

/**
 * Idempotent, unconditional puts and deletes in chunks of 25, UnprocessedItems retried with
 * backoff a bounded number of times. Not atomic: for rebuilding projections only.
 */
export async function batchWrite(doc: DynamoDBDocumentClient, table: string, writes: WriteRequest[]): Promise<void> {
  for (let i = 0; i < writes.length; i += BATCH_WRITE_LIMIT) {
    let pending = writes.slice(i, i + BATCH_WRITE_LIMIT).map((w) =>
      'put' in w ? { PutRequest: { Item: w.put } } : { DeleteRequest: { Key: w.delete } },
    );
    for (let round = 0; pending.length > 0; round++) {
      if (round > MAX_UNPROCESSED_ROUNDS) throw new TreeError('SERVICE_UNAVAILABLE', 'DynamoDB kept returning unprocessed items');
      if (round > 0) await sleep(backoffDelay(round));
      const request = pending;
      const out = await callDynamo(() => doc.send(new BatchWriteCommand({ RequestItems: { [table]: request } })));
      pending = (out.UnprocessedItems?.[table] ?? []) as typeof pending;
    }
  }
}
