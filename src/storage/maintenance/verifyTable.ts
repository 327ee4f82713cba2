import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { scanTable, type ScanOptions } from '../../dynamodb/scan.js';
import type { StrategyName } from '../strategies/strategies.js';
import type { TypedData } from '../../nodeTypes/typedData.js';
import { kindOf } from './kindOf.js';
import { verifyItems, type Problem } from './verify.js';

export interface VerifyReport {
  nodes: number;
  problems: Problem[];
}

/**
 * Reads the whole table (strongly consistent) and checks it against the truth. The read is
 * scanTable's: bounded pages, a page DynamoDB does not serve asked again after a wait (told to
 * `scan.onWait`), up to its documented bound. `typedData`: the node types, whose path keys the
 * path strategy keeps.
 */
export async function verifyTable(
  doc: DynamoDBDocumentClient,
  table: string,
  strategy: StrategyName,
  maxTreeDepth: number,
  scan: ScanOptions = {},
  typedData?: TypedData,
): Promise<VerifyReport> {
  const items = await scanTable(doc, table, scan);
  return {
    nodes: items.filter((item) => kindOf(item) === 'node').length,
    problems: verifyItems(items, strategy, maxTreeDepth, typedData),
  };
}
