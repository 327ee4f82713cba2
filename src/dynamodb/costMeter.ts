import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

type MiddlewareStack = DynamoDBClient['middlewareStack'];

/**
 * What one GraphQL operation cost in DynamoDB. A middleware on the SDK client adds to the meter
 * of the operation it runs in (found through AsyncLocalStorage), so concurrent requests never
 * mix their counts. `requests` counts attempts, retries included.
 */
export interface DynamoCost {
  requests: number;
  readUnits: number;
  writeUnits: number;
  /** Items put, updated or deleted (condition checks excluded), once per logical call. */
  itemsWritten: number;
}

const meters = new AsyncLocalStorage<DynamoCost>();

export function newCost(): DynamoCost {
  return { requests: 0, readUnits: 0, writeUnits: 0, itemsWritten: 0 };
}

export function runWithCost<T>(cost: DynamoCost, fn: () => T): T {
  return meters.run(cost, fn);
}

export function currentCost(): DynamoCost | undefined {
  return meters.getStore();
}

const WRITE_COMMANDS = /^(Put|Update|Delete|BatchWrite|TransactWrite)/;

interface CapacityEntry {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

/** Adds the cost meter to a client's middleware stack (the document client shares it). */
export function addCostMiddleware(stack: MiddlewareStack): void {
  // Inside the retry loop: one count per attempt.
  stack.add(
    (next) => async (args) => {
      const cost = meters.getStore();
      if (cost) cost.requests += 1;
      return next(args);
    },
    { step: 'finalizeRequest', priority: 'low', name: 'canopyCountAttempts' },
  );
  // Outside it: ask for consumed capacity and add it up once per logical call.
  stack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      if (input && input.ReturnConsumedCapacity === undefined) input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const cost = meters.getStore();
      if (cost) {
        cost.itemsWritten += itemsWrittenBy(String(context.commandName ?? ''), input);
        const consumed = (result.output as { ConsumedCapacity?: CapacityEntry | CapacityEntry[] })
          .ConsumedCapacity;
        const entries = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
        const isWrite = WRITE_COMMANDS.test(String(context.commandName ?? ''));
        for (const entry of entries) {
          const read = entry.ReadCapacityUnits ?? (isWrite ? 0 : (entry.CapacityUnits ?? 0));
          const write = entry.WriteCapacityUnits ?? (isWrite ? (entry.CapacityUnits ?? 0) : 0);
          cost.readUnits += read;
          cost.writeUnits += write;
        }
      }
      return result;
    },
    { step: 'initialize', priority: 'high', name: 'canopyConsumedCapacity' },
  );
}

/** How many items a write command puts, updates or deletes. */
function itemsWrittenBy(command: string, input: Record<string, unknown>): number {
  if (command.startsWith('TransactWrite')) {
    const items = (input.TransactItems ?? []) as Array<Record<string, unknown>>;
    return items.filter((item) => !('ConditionCheck' in item)).length;
  }
  if (command.startsWith('BatchWrite')) {
    const tables = Object.values((input.RequestItems ?? {}) as Record<string, unknown[]>);
    return tables.reduce((sum, requests) => sum + requests.length, 0);
  }
  return /^(Put|Update|Delete)Item/.test(command) || /^(Put|Update|Delete)Command/.test(command) ? 1 : 0;
}
