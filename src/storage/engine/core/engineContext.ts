import type { TypedData } from '../../../nodeTypes/typedData.js';
import type { StrategyContext, TreeStrategy } from '../../strategy.js';
import type { Job } from '../../treeStore.js';

/** A job run by this process: it `started` (or took it over), `ended` it, or `stopped` on an error. */
export interface JobEvent {
  event: 'started' | 'ended' | 'stopped';
  job: Pick<Job, 'id' | 'kind' | 'nodeId'>;
  error?: string;
}

/**
 * What the engine's reads and writes need: the strategy's context (client, table, limits,
 * cursors, reads) and the strategy it drives. Built once per store by createEngine.
 */
export interface EngineContext extends StrategyContext {
  strategy: TreeStrategy;
  /** Every strategy, for a reindex from one to another. */
  strategies: readonly TreeStrategy[];
  /** How long a job's lease lasts without renewal (JOB_LEASE_SECONDS). */
  jobLeaseMs: number;
  /**
   * The items one transaction may hold (TRANSACTION_ITEMS, at most DynamoDB's 100): a move or
   * delete whose writes do not fit runs as a job, whose chunks hold at most this many.
   */
  transactionItems: number;
  /** Runs a job this process started, beside the requests; stopping the jobs waits for it. */
  background(work: Promise<unknown>): void;
  /**
   * Whether this process runs the jobs it starts (JOB_RUNNER=process). When not, a job starts
   * with an expired lease, for a worker to take up (JOB_RUNNER=worker).
   */
  runsJobs: boolean;
  /** The tenant whose items the context reads and writes (null: the default tenant). */
  tenant: string | null;
  /**
   * For a caller who may write only some trees (its grants): what it may do with the tree of
   * this root. Every write then checks the tree it reads the node (and a move's new parent) in,
   * and guards it until it commits (guardedPlace.ts). Absent: the caller may write every tree.
   */
  treeAccess?: TreeAccess;
  /** Told of the jobs this process runs (EngineOptions.onJob). */
  onJob?: (event: JobEvent) => void;
  /** Who makes this request's changes (the caller's subject or API key name), for their records. */
  by?: string;
  /** How long a change's record is kept: the longer of CHANGE_RETENTION_HOURS and HISTORY_RETENTION_DAYS. */
  changeRetentionMs: number;
  /** How long a deleted subtree stays restorable (UNDO_RETENTION_DAYS). */
  undoRetentionMs: number;
  /** The node types (NODE_TYPES) every write checks its nodes against; absent: untyped nodes only. */
  typedData?: TypedData;
  /** Told of the changes this process committed, once committed: the wake-up of live subscribers. */
  onChanged?: (tenant: string | null, changes: ReadonlyArray<{ rootId: string; seq: number }>) => void;
}

/** What a caller may do with the tree of a root: write it, only read it, or nothing (null). */
export type TreeAccess = (rootId: string) => 'write' | 'read' | null;

/** The part of the context the truth's plain reads need. */
export type TableContext = Pick<StrategyContext, 'doc' | 'table' | 'maxTreeDepth'>;
