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
