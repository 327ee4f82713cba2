import type { DynamoOptions } from '../../src/dynamodb/client.js';

/**
 * A fault middleware for the real SDK client: holds the `nth` TransactWriteItems after `arm()`
 * until `release()`, like a process paused in the middle of a job.
 */
export function pauseTransaction(nth: number) {
  let armed = false;
  let seen = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let paused!: () => void;
  const reached = new Promise<void>((resolve) => (paused = resolve));
  const middleware: DynamoOptions['middleware'] = (stack) =>
    stack.add(
      (next, context) => async (args) => {
        if (armed && String(context.commandName).startsWith('TransactWrite') && ++seen === nth) {
          paused();
          await gate;
        }
        return next(args);
      },
      { step: 'initialize', name: 'pauseTransaction' },
    );
  return { middleware, arm: () => (armed = true), reached, release };
}
