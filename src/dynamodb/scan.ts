import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TreeError, isTreeError } from '../errors.js';
import { backoffDelay, sleep } from './backoff.js';
import type { Item, Key } from './keys.js';
import { callDynamo } from './serviceErrors.js';

/** Upper bound on requests of one table scan (about 100 million items) before it is refused. */
export const MAX_SCAN_PAGES = 100_000;

/**
 * How many segments of a table one scan reads at once (a parallel scan): DynamoDB Local serves
 * them side by side, and DynamoDB spreads them over the table's partitions.
 */
export const SCAN_SEGMENTS = 4;

/**
 * The items one Scan request asks for (its Limit). Without it a page is 1 MB, about 5,000 of
 * the tables' small items, and DynamoDB Local takes more than the request timeout (5 s) to serve
 * such a page of a table of 150,000 items on two busy cores (15 s measured), every attempt
 * alike; pages of 1,000 took under 1 s there, and the whole scan a third of the time.
 */
export const SCAN_PAGE_ITEMS = 1000;

/**
 * How many times one page that DynamoDB did not serve (SERVICE_UNAVAILABLE: throttled, timed
 * out, refused: each after the client's own 3 attempts) is asked again before the scan fails:
 * with waits of up to SCAN_WAIT_CAP_MS between, a page is given up after about 5 minutes.
 */
export const SCAN_PAGE_RETRIES = 8;
const SCAN_WAIT_BASE_MS = 1000;
const SCAN_WAIT_CAP_MS = 30_000;

/** A page DynamoDB did not serve, about to be asked again: what a long scan tells its user. */
export interface ScanWait {
  segment: number;
  /** This retry of the page: 1 to `retries`. */
  retry: number;
  retries: number;
  /** Why the page failed: the SDK's error name (TimeoutError, ThrottlingException, ...). */
  cause: string;
  /** How long the scan waits before it asks again. */
  delayMs: number;
  /** The items the page is asked for next (halved after each failure, back up after a success). */
  pageItems: number;
}

export interface ScanOptions {
  /** Items per Scan request (default SCAN_PAGE_ITEMS). */
  pageItems?: number;
  /** Retries of one page (default SCAN_PAGE_RETRIES). */
  retries?: number;
  /** The wait before a page's `retry`th retry (default: full-jitter backoff, 1 s doubling up to 30 s). */
  waitMs?: (retry: number) => number;
  /** Told of each page's item count. */
  onPage?: (count: number) => void;
  /** Told of each page that is asked again, before the wait. */
  onWait?: (wait: ScanWait) => void;
}

/**
 * Reads a whole table, strongly consistent, its SCAN_SEGMENTS segments at once, in pages of at
 * most `pageItems` items; a page DynamoDB does not serve is asked again, for fewer items, after
 * a wait, at most `retries` times in a row. The items come segment by segment.
 */
export async function scanTable(
  doc: DynamoDBDocumentClient,
  table: string,
  options: ScanOptions = {},
): Promise<Array<Item & Key>> {
  const pages = { read: 0 };
  const segments = await Promise.all(
    Array.from({ length: SCAN_SEGMENTS }, (_, index) => scanSegment(doc, table, index, options, pages)),
  );
  return segments.flat();
}

async function scanSegment(
  doc: DynamoDBDocumentClient,
  table: string,
  segment: number,
  options: ScanOptions,
  pages: { read: number },
): Promise<Array<Item & Key>> {
  const most = options.pageItems ?? SCAN_PAGE_ITEMS;
  const retries = options.retries ?? SCAN_PAGE_RETRIES;
  const waitMs = options.waitMs ?? ((retry: number) => backoffDelay(retry, SCAN_WAIT_BASE_MS, SCAN_WAIT_CAP_MS));
  const items: Array<Item & Key> = [];
  let startKey: Record<string, unknown> | undefined;
  let limit = most;
  let retry = 0;
  for (;;) {
    if (++pages.read > MAX_SCAN_PAGES)
      throw new TreeError('SERVICE_UNAVAILABLE', `scan of ${table} needed more than ${MAX_SCAN_PAGES} pages`);
    let out;
    try {
      out = await callDynamo(() => doc.send(scanPage(table, segment, startKey, limit)));
    } catch (error) {
      if (!isTreeError(error, 'SERVICE_UNAVAILABLE') || retry >= retries) throw error;
      retry++;
      limit = Math.max(1, Math.floor(limit / 2));
      const delayMs = waitMs(retry);
      const cause = error.details?.cause ?? 'unknown';
      options.onWait?.({ segment, retry, retries, cause, delayMs, pageItems: limit });
      await sleep(delayMs);
      continue;
    }
    retry = 0;
    limit = Math.min(most, limit * 2);
    items.push(...((out.Items ?? []) as Array<Item & Key>));
    options.onPage?.(out.Items?.length ?? 0);
    startKey = out.LastEvaluatedKey;
    if (!startKey) return items;
  }
}

/** One Scan request: a page of one segment, from `startKey`, of at most `limit` items. */
const scanPage = (table: string, segment: number, startKey: Record<string, unknown> | undefined, limit: number) =>
  new ScanCommand({
    TableName: table,
    ConsistentRead: true,
    ExclusiveStartKey: startKey,
    Segment: segment,
    TotalSegments: SCAN_SEGMENTS,
    Limit: limit,
  });
