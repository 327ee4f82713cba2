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
 * One page of a Query, strongly consistent on the table (an index answers eventually
 * consistent), from `startKey`, with `more` of the input's fields (its Limit, its Select): what
 * every loop below sends.
 */
async function queryPage(
  doc: DynamoDBDocumentClient,
  input: QueryCommandInput,
  startKey: QueryCommandInput['ExclusiveStartKey'],
  more: Partial<QueryCommandInput> = {},
) {
  const out = await callDynamo(() =>
    doc.send(
      new QueryCommand({
        ...input,
        ...more,
        ConsistentRead: input.IndexName ? undefined : true,
        ExclusiveStartKey: startKey,
      }),
    ),
  );
  withPk(input, (out.Items ?? []) as Item[]);
  return out;
}

/**
 * A Query's items, each with its partition key: a projection (withProjection) leaves it off the
 * wire, since it is the Query's own (`#pk = :pk`, keyQuery) for every item of the answer.
 */
function withPk(input: QueryCommandInput, items: Item[]): void {
  if (input.IndexName || input.ExpressionAttributeNames?.['#pk'] !== 'pk') return;
  const pk: unknown = input.ExpressionAttributeValues?.[':pk'];
  if (pk !== undefined) for (const item of items) item.pk ??= pk;
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
    const out = await queryPage(doc, input, startKey, { Limit: remaining });
    items.push(...((out.Items ?? []) as Item[]));
    startKey = out.LastEvaluatedKey;
    if (!startKey) return { items, lastKey: undefined };
    if (limit !== undefined && items.length >= limit) return { items, lastKey: startKey };
  }
  throw new TreeError('SERVICE_UNAVAILABLE', `query needed more than ${MAX_QUERY_PAGES} pages`);
}

/**
 * Runs a Query through at most `evaluated` items of its key range, counted before its
 * FilterExpression (what DynamoDB bills), following LastEvaluatedKey: the items it kept, and
 * whether the range ended within them. A read that is worth making only when a range is small
 * spends at most that much to find out that it is not.
 */
export async function queryWithin(
  doc: DynamoDBDocumentClient,
  input: QueryCommandInput,
  evaluated: number,
): Promise<{ items: Item[]; complete: boolean }> {
  const items: Item[] = [];
  let startKey = input.ExclusiveStartKey;
  let scanned = 0;
  while (scanned < evaluated) {
    const out = await queryPage(doc, input, startKey, { Limit: evaluated - scanned });
    items.push(...((out.Items ?? []) as Item[]));
    scanned += out.ScannedCount ?? 0;
    startKey = out.LastEvaluatedKey;
    if (!startKey) return { items, complete: true };
  }
  return { items, complete: false };
}

/**
 * Upper bound on 1 MB pages one count may read: a count returns no items, so it may go through a
 * range far bigger than a read of items (a thousand pages, about 2.5 million nodes of 400 bytes);
 * a query's runtime budget (MAX_OPERATION_REQUESTS) usually stops it first.
 */
export const MAX_COUNT_PAGES = 1024;

/**
 * How many items `input`'s key range holds (those its FilterExpression keeps, when it has one):
 * a `Select: 'COUNT'` Query, following LastEvaluatedKey through the range's 1 MB pages, for at
 * most MAX_COUNT_PAGES pages; past that it fails rather than answer a part of the count.
 */
export async function countItems(doc: DynamoDBDocumentClient, input: QueryCommandInput): Promise<number> {
  let count = 0;
  let startKey = input.ExclusiveStartKey;
  for (let page = 0; page < MAX_COUNT_PAGES; page++) {
    const out = await queryPage(doc, input, startKey, { Select: 'COUNT' });
    count += out.Count ?? 0;
    startKey = out.LastEvaluatedKey;
    if (!startKey) return count;
  }
  throw new TreeError('SERVICE_UNAVAILABLE', `count needed more than ${MAX_COUNT_PAGES} pages`);
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
    const out = await queryPage(doc, input, startKey);
    if (onPage((out.Items ?? []) as Item[]) === true) return;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
}
