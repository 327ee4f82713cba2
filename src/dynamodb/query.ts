import { QueryCommand, type QueryCommandInput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TreeError } from '../errors.js';
import { callDynamo } from './serviceErrors.js';
import type { Item } from './keys.js';

/** Upper bound on 1 MB pages one logical query may read before it is refused. */
export const MAX_QUERY_PAGES = 64;

export interface QueryResult {
  items: Item[];
  /** Set when `limit` stopped the query before the end of the key range. */
  lastKey: Record<string, unknown> | undefined;
}

/**
 * Runs a Query to the end of its key range, or until `limit` items are collected, following
 * LastEvaluatedKey for at most MAX_QUERY_PAGES pages; past that it fails rather than return
 * a silent prefix.
 */
export async function queryItems(
  doc: DynamoDBDocumentClient,
  input: QueryCommandInput,
  limit?: number,
): Promise<QueryResult> {
  const items: Item[] = [];
  let startKey = input.ExclusiveStartKey;
  for (let page = 0; page < MAX_QUERY_PAGES; page++) {
    const remaining = limit === undefined ? undefined : limit - items.length;
    const out = await callDynamo(() =>
      doc.send(
        new QueryCommand({
          ...input,
          ConsistentRead: input.IndexName ? undefined : true,
          ExclusiveStartKey: startKey,
          Limit: remaining,
        }),
      ),
    );
    items.push(...((out.Items ?? []) as Item[]));
    startKey = out.LastEvaluatedKey;
    if (!startKey) return { items, lastKey: undefined };
    if (limit !== undefined && items.length >= limit) return { items, lastKey: startKey };
  }
  throw new TreeError('SERVICE_UNAVAILABLE', `query needed more than ${MAX_QUERY_PAGES} pages`);
}

/**
 * lib-dynamodb's paginators (paginateQuery) would do what these loops do, but they refuse any
 * client that is not a DynamoDBDocumentClient instance (`Invalid client`), and every client here
 * is a wrapped one (the request's cost meter, the tenant's keys): the loops stay, each bounded.
 */

/**
 * Runs a Query through the pages of its key range, handing each page's items to `onPage`, until
 * the range ends or `onPage` answers true: for a read that may have to see a whole range however
 * large (no MAX_QUERY_PAGES cap), a page at a time.
 */
export async function forEachQueryPage(
  doc: DynamoDBDocumentClient,
  input: QueryCommandInput,
  onPage: (items: Item[]) => boolean | void,
): Promise<void> {
  let startKey = input.ExclusiveStartKey;
  do {
    const out = await callDynamo(() =>
      doc.send(
        new QueryCommand({ ...input, ConsistentRead: input.IndexName ? undefined : true, ExclusiveStartKey: startKey }),
      ),
    );
    if (onPage((out.Items ?? []) as Item[]) === true) return;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
}
