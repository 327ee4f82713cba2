import type { StrategyContext, TreeStrategy } from '../strategy.js';

/**
 * What the engine's reads and writes need: the strategy's context (client, table, limits,
 * cursors, reads) and the strategy it drives. Built once per store by createEngine.
 */
export interface EngineContext extends StrategyContext {
  strategy: TreeStrategy;
  /** How long a job's lease lasts without renewal (JOB_LEASE_SECONDS). */
  jobLeaseMs: number;
}

/** The part of the context the truth's plain reads need. */
export type TableContext = Pick<StrategyContext, 'doc' | 'table' | 'maxTreeDepth'>;
