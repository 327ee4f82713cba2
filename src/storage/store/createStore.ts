import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { NodeTypes } from '../../nodeTypes/nodeTypes.js';
import { TypedData } from '../../nodeTypes/typedData.js';
import { createCursorCodec } from '../cursor.js';
import { createEngine, type EngineOptions } from '../engine/createEngine.js';
import type { TreeAdmin } from '../treeStore.js';
import { STRATEGIES, strategyNamed, type StrategyName } from '../strategies/strategies.js';

export interface StoreOptions {
  doc: DynamoDBDocumentClient;
  table: string;
  strategy: StrategyName;
  maxTreeDepth: number;
  /** Signs pagination cursors (CURSOR_SECRET). */
  cursorSecret: string;
  /** How long a job's lease lasts without renewal (JOB_LEASE_SECONDS). */
  jobLeaseMs: number;
  /** The items one transaction may hold (TRANSACTION_ITEMS). */
  transactionItems: number;
  /** Told of the jobs this process runs. */
  onJob?: EngineOptions['onJob'];
  /** How long a change's record stays in its tree's log and its node's history (ms). */
  changeRetentionMs: number;
  /** How long a deleted subtree stays restorable (UNDO_RETENTION_DAYS, in ms). */
  undoRetentionMs: number;
  /** Told of the changes this process committed (the live subscribers' wake-up). */
  onChanged?: EngineOptions['onChanged'];
  /** Whether this process runs the jobs it starts (default true; JOB_RUNNER). */
  runsJobs?: boolean;
  /** The node types of NODE_TYPES, which every write checks; absent: untyped nodes only. */
  nodeTypes?: NodeTypes;
}

/** The storage interface over the configured strategy. */
export function createStore(options: StoreOptions): TreeAdmin {
  return createEngine(strategyNamed(options.strategy), {
    doc: options.doc,
    table: options.table,
    maxTreeDepth: options.maxTreeDepth,
    cursors: createCursorCodec(options.cursorSecret),
    jobLeaseMs: options.jobLeaseMs,
    transactionItems: options.transactionItems,
    strategies: STRATEGIES,
    changeRetentionMs: options.changeRetentionMs,
    undoRetentionMs: options.undoRetentionMs,
    ...(options.onJob ? { onJob: options.onJob } : {}),
    ...(options.onChanged ? { onChanged: options.onChanged } : {}),
    ...(options.runsJobs === undefined ? {} : { runsJobs: options.runsJobs }),
    ...(options.nodeTypes ? { typedData: new TypedData(options.nodeTypes) } : {}),
  });
}
