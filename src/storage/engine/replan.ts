import { ConditionFailed } from '../../dynamodb/transactWrite.js';

/**
 * Thrown by a write's attempt that must start again from its reads because what it read changed
 * under it, before it committed: a job it waited for finished, a level read met a node twice (it
 * moved inside the subtree meanwhile), a parent turned out to lie below the moving node. The loop
 * that runs the attempts (mutations.ts, replanning) catches it, as it catches ConditionFailed,
 * DynamoDB's word for the same at commit.
 */
export class Replan extends Error {
  constructor(reason: string) {
    super(`the write must read again: ${reason}`);
    this.name = 'Replan';
  }
}

/** Whether an attempt must start again from its reads (Replan, or a condition failed at commit). */
export const mustReplan = (error: unknown): boolean => error instanceof Replan || error instanceof ConditionFailed;
