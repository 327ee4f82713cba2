import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CursorCodec } from '../cursor.js';
import type { Projection } from './projection.js';

/** What the truth's reads and writes need: passed in, never imported as globals. */
export interface StoreContext {
  doc: DynamoDBDocumentClient;
  table: string;
  maxDepth: number;
  cursors: CursorCodec;
  /** What the strategy keeps beyond the truth. */
  projection: Projection;
}
