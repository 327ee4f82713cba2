import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TreeError } from '../errors.js';
import type { Item, Key } from './keys.js';
import { callDynamo } from './serviceErrors.js';

/** Upper bound on 1 MB pages of one table scan (about 100 GB) before it is refused. */
export const MAX_SCAN_PAGES = 100_000;

/**
 * How many segments of a table one scan reads at once (a parallel scan): DynamoDB Local serves
 * them side by side, and DynamoDB spreads them over the table's partitions.
 */
export const SCAN_SEGMENTS = 4;

/**
 * Reads a whole table, strongly consistent, page by page, its SCAN_SEGMENTS segments at once;
 * `onPage` sees each page's count. The items come segment by segment.
 */
export async function scanTable(
  doc: DynamoDBDocumentClient,
  table: string,
  onPage?: (count: number) => void,
): Promise<Array<Item & Key>> {
  let pages = 0;
  const segment = async (index: number): Promise<Array<Item & Key>> => {
    const items: Array<Item & Key> = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      if (++pages > MAX_SCAN_PAGES)
        throw new TreeError('SERVICE_UNAVAILABLE', `scan of ${table} needed more than ${MAX_SCAN_PAGES} pages`);
      const out = await callDynamo(() =>
        doc.send(
          new ScanCommand({
            TableName: table,
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
            Segment: index,
            TotalSegments: SCAN_SEGMENTS,
          }),
        ),
      );
      items.push(...((out.Items ?? []) as Array<Item & Key>));
      onPage?.(out.Items?.length ?? 0);
      startKey = out.LastEvaluatedKey;
    } while (startKey);
    return items;
  };
  const segments = await Promise.all(Array.from({ length: SCAN_SEGMENTS }, (_, i) => segment(i)));
  return segments.flat();
}
