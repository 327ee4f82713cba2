import type { TypedData } from '../../../nodeTypes/typedData.js';
import type { StrategyContext, TreeStrategy } from '../../strategy.js';
import type { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import type { AccessLevel, Job } from '../../treeStore.js';

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
   * For a caller whose credentials do not give it everything: its level on the nodes a write
   * touches (NOT_FOUND, FORBIDDEN), and the guard of the grant it comes from, carried by the
   * write's transaction (guardedNode.ts, guardedPlace.ts). Absent: the caller may do anything.
   */
  access?: CallerAccess;
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

/**
 * A caller's access as the engine checks it (engine/access/callerAccess.ts): read once per
 * store, when a check needs the grants kept in the table; forgotten when a write's guard of a
 * grant failed, so that the write plans again with the grants as they are.
 */
export interface CallerAccess {
  /** The caller's level on the node of `chain` (ids, root first, the node last). */
  levelOn(chain: readonly string[]): Promise<AccessLevel | null>;
  /** The levels of many chains, once the grants are read (a page of history). */
  levels(): Promise<(chain: readonly string[]) => AccessLevel | null>;
  /**
   * Refuses the caller a level below `needed` on the node of `chain` (NOT_FOUND as if node `id`
   * did not exist when it may not read it, FORBIDDEN otherwise), and answers the guard that
   * keeps the grant it holds until the write commits (none when its credentials give it).
   */
  require(chain: readonly string[], needed: AccessLevel, label: string, id: string): Promise<GrantGuard>;
  /**
   * Refuses a move of the node of `from` (its chain) under the parent of chain `to` that takes
   * it out of the subtree whose grant gives the caller its write on it, unless the caller may
   * administer the node (FORBIDDEN); answers the guard of that grant. A level on the whole tree
   * from the caller's credentials lets it move nodes between trees it may write, as before.
   */
  requireMove(from: readonly string[], to: readonly string[], id: string): Promise<GrantGuard>;
  /** Whether `key` (a failed condition's, keyString) is a principal's grants: the write must read them again. */
  guards(key: string): boolean;
  /** Forgets the grants read: the next check reads them again. */
  forget(): void;
  /** The grants the caller holds, by node (read once, as the checks read them). */
  held(): Promise<HeldGrants>;
}

/** A grant a caller holds: on which node, through which principal, at which level. */
export interface HeldGrant {
  nodeId: string;
  principal: string;
  level: AccessLevel;
}

/** The grants a caller holds, by node: the highest of its principals' there. */
export type HeldGrants = ReadonlyMap<string, HeldGrant>;

/** Adds to a transaction the check that the grant a write relies on is still there. */
export type GrantGuard = (tx: TransactionBuilder) => void;

/** The part of the context the truth's plain reads need. */
export type TableContext = Pick<StrategyContext, 'doc' | 'table' | 'maxTreeDepth'>;
