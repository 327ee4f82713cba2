import type { DynamoOptions } from '../../src/dynamodb/client.js';

type Input = Record<string, unknown>;

/**
 * A fault middleware for the real SDK client: after `arm()`, holds the first call that `holds`
 * picks until `release()`, like a process paused at that instant.
 */
export function pauseWhen(holds: (commandName: string, input: Input) => boolean) {
  let armed = false;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let paused!: () => void;
  const reached = new Promise<void>((resolve) => (paused = resolve));
  const middleware: DynamoOptions['middleware'] = (stack) =>
    stack.add(
      (next, context) => async (args) => {
        if (armed && holds(String(context.commandName), args.input as Input)) {
          armed = false;
          paused();
          await gate;
        }
        return next(args);
      },
      { step: 'initialize', name: 'pauseWhen' },
    );
  return { middleware, arm: () => (armed = true), reached, release };
}

/** Holds the `nth` TransactWriteItems after `arm()`. */
export function pauseTransaction(nth: number) {
  let seen = 0;
  return pauseWhen((commandName) => commandName.startsWith('TransactWrite') && ++seen === nth);
}

/**
 * A fault middleware that pauses again and again: `next(holds)` holds the next call that `holds`
 * picks until `release()` (one server, many tests, each with its own pause). At the `build` step,
 * a transaction is held once it is in flight for the emulation of AWS's conflicts
 * (transactionConflicts.ts): another that names one of its items meanwhile is cancelled.
 */
export function pauses(step: 'initialize' | 'build' = 'initialize') {
  let pending:
    { holds: (commandName: string, input: Input) => boolean; paused: () => void; gate: Promise<void> } | undefined;
  const middleware: DynamoOptions['middleware'] = (stack) =>
    stack.add(
      (next, context) => async (args) => {
        const armed = pending;
        if (armed && armed.holds(String(context.commandName), args.input as Input)) {
          pending = undefined;
          armed.paused();
          await armed.gate;
        }
        return next(args);
      },
      { step: step as 'initialize', name: `pauses-${step}` },
    );
  return {
    middleware,
    next(holds: (commandName: string, input: Input) => boolean) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let paused!: () => void;
      const reached = new Promise<void>((resolve) => (paused = resolve));
      pending = { holds, paused, gate };
      return { reached, release };
    },
  };
}
