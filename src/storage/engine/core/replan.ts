import { ConditionFailed } from '../../../dynamodb/conditionFailed.js';
import { TreeError } from '../../../errors.js';

/**
 * Thrown by a write's attempt that must start again from its reads because what it read changed
 * under it, before it committed: a job it waited for finished, a level read met a node twice (it
 * moved inside the subtree meanwhile), a parent turned out to lie below the moving node. The loop
 * that runs the attempts (`replanning`, below) catches it, as it catches ConditionFailed,
 * DynamoDB's word for the same at commit.
 */
export class Replan extends Error {
  constructor(
    reason: string,
    /**
     * The write waited for a job that is now done, or lost its place among siblings to a write
     * that committed first: it read nothing wrong, others went first.
     */
    readonly waited = false,
  ) {
    super(`the write must read again: ${reason}`);
    this.name = 'Replan';
  }
}

/** Whether an attempt must start again from its reads (Replan, or a condition failed at commit). */
export const mustReplan = (error: unknown): boolean => error instanceof Replan || error instanceof ConditionFailed;

/** How many times a write reads and plans again before it answers CONFLICT. */
export const MAX_REPLANS = 6;
/**
 * How many jobs a write may wait for, besides: a wait that ends with the job done is no sign of
 * a tree that keeps changing under the write, and each is bounded in time (overlapWait.ts).
 */
export const MAX_WAITS = 8;

/**
 * Runs a write's attempt (read, check, plan, commit) until it commits: again from its reads
 * when what it read changed (mustReplan), at most MAX_REPLANS times, then CONFLICT; after
 * waiting for a job, again without counting it there (at most MAX_WAITS times).
 */
export async function replanning<T>(attempt: () => Promise<T>): Promise<T> {
  let waits = 0;
  for (let i = 0; i < MAX_REPLANS; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!mustReplan(error)) throw error;
      if (error instanceof Replan && error.waited && ++waits <= MAX_WAITS) {
        i--;
        continue;
      }
    }
  }
  throw new TreeError('CONFLICT', 'the tree kept changing under this write; try again');
}
