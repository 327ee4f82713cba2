import type { DynamoOptions } from '../../src/dynamodb/client.js';

type MiddlewareStack = Parameters<NonNullable<DynamoOptions['middleware']>>[0];

/** Counts SDK calls per command (once per call, before the retry loop). */
export class CallCounter {
  readonly calls = new Map<string, number>();
  readonly install = (stack: MiddlewareStack): void => {
    stack.add(
      (next, context) => async (args) => {
        const command = String(context.commandName ?? 'unknown');
        this.calls.set(command, (this.calls.get(command) ?? 0) + 1);
        return next(args);
      },
      { step: 'initialize', name: 'testCallCounter' },
    );
  };
  snapshot(): Map<string, number> {
    return new Map(this.calls);
  }
  /** Calls per command since `before`. */
  since(before: Map<string, number>): Record<string, number> {
    const delta: Record<string, number> = {};
    for (const [command, count] of this.calls) {
      const diff = count - (before.get(command) ?? 0);
      if (diff > 0) delta[command] = diff;
    }
    return delta;
  }
}
