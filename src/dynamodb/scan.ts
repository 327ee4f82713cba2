import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TreeError } from '../errors.js';
import type { Item, Key } from './keys.js';
import { callDynamo } from './serviceErrors.js';

/** Upper bound on 1 MB pages of one table scan (about 100 GB) before it is refused. */
export const MAX_SCAN_PAGES = 100_000;

/** Reads a whole table, strongly consistent, page by page; `onPage` sees each page's count. */
export async function scanTable(
  doc: DynamoDBDocumentClient,
  table: string,
  onPage?: (count: number) => void,
): Promise<Array<Item & Key>> {
  const items: Array<Item & Key> = [];
  let startKey: Record<string, unknown> | undefined;
  for (let page = 0; page < MAX_SCAN_PAGES; page++) {
    const out = await callDynamo(() =>
      doc.send(new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey: startKey })),
    );
    items.push(...((out.Items ?? []) as Array<Item & Key>));
    onPage?.(out.Items?.length ?? 0);
    startKey = out.LastEvaluatedKey;
    if (!startKey) return items;
  }
  throw new TreeError('SERVICE_UNAVAILABLE', `scan of ${table} needed more than ${MAX_SCAN_PAGES} pages`);
}
