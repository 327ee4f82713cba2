import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { scanTable } from '../../dynamodb/scan.js';
import type { StrategyName } from '../strategies/strategies.js';
import { kindOf } from './kindOf.js';
import { verifyItems, type Problem } from './verify.js';

export interface VerifyReport {
  nodes: number;
  problems: Problem[];
}

/** Reads the whole table (strongly consistent) and checks it against the truth. */
export async function verifyTable(
  doc: DynamoDBDocumentClient,
  table: string,
  strategy: StrategyName,
  maxTreeDepth: number,
  onPage?: (count: number) => void,
): Promise<VerifyReport> {
  const items = await scanTable(doc, table, onPage);
  return {
    nodes: items.filter((item) => kindOf(item) === 'node').length,
    problems: verifyItems(items, strategy, maxTreeDepth),
  };
}
