import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TreeError } from '../errors.js';
import { backoffDelay, sleep } from './backoff.js';
import { keyString, type Item, type Key } from './keys.js';
import { callDynamo } from './serviceErrors.js';

export const BATCH_GET_LIMIT = 100;
/** Rounds of UnprocessedKeys retries per chunk before giving up with SERVICE_UNAVAILABLE. */
export const MAX_UNPROCESSED_ROUNDS = 5;

/** Pure: deduplicated keys in chunks of at most 100 (BatchGetItem rejects duplicates). */
export function chunkKeys(keys: readonly Key[], size = BATCH_GET_LIMIT): Key[][] {
  const unique = new Map<string, Key>();
  for (const key of keys) unique.set(keyString(key), { pk: key.pk, sk: key.sk });
  const all = [...unique.values()];
  const chunks: Key[][] = [];
  for (let i = 0; i < all.length; i += size) chunks.push(all.slice(i, i + size));
  return chunks;
}

/**
 * Strongly consistent BatchGetItem over any number of keys: the chunks run in parallel (one
 * wave), and UnprocessedKeys are retried with backoff a bounded number of times. The result
 * maps keyString(key) to the item; a missing key is absent. Never returns partial data.
 */
export async function batchGetItems(
  doc: DynamoDBDocumentClient,
  table: string,
  keys: readonly Key[],
): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  await Promise.all(
    chunkKeys(keys).map(async (chunk) => {
      let pending: Key[] = chunk;
      for (let round = 0; pending.length > 0; round++) {
        if (round > MAX_UNPROCESSED_ROUNDS) {
          throw new TreeError('SERVICE_UNAVAILABLE', 'DynamoDB kept returning unprocessed keys', {
            unprocessed: pending.length,
          });
        }
        if (round > 0) await sleep(backoffDelay(round));
        const request = pending;
        const out = await callDynamo(() =>
          doc.send(
            new BatchGetCommand({
              RequestItems: { [table]: { Keys: request, ConsistentRead: true } },
            }),
          ),
        );
        for (const item of out.Responses?.[table] ?? []) {
          found.set(keyString(item as Key), item);
        }
        pending = (out.UnprocessedKeys?.[table]?.Keys ?? []) as Key[];
      }
    }),
  );
  return found;
}

/** One item by its key (a strongly consistent BatchGetItem of one key); undefined when absent. */
export async function getItem(doc: DynamoDBDocumentClient, table: string, key: Key): Promise<Item | undefined> {
  return (await batchGetItems(doc, table, [key])).get(keyString(key));
}
