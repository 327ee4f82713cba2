import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { tooComplex, type TreeError } from '../errors.js';

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
  /** Items returned by reads (GetItem, BatchGetItem, Query, Scan). */
  itemsRead: number;
  /** The runtime budget of a read-only operation: no call past it is made. */
  budget?: ReadBudget;
  /** The refusal, once the operation went over its budget. */
  overBudget?: TreeError;
}

export interface ReadBudget {
  /** DynamoDB requests (MAX_OPERATION_REQUESTS). */
  requests: number;
  /** Items read (MAX_OPERATION_ITEMS_READ). */
  itemsRead: number;
}

const meters = new AsyncLocalStorage<DynamoCost>();

export function newCost(): DynamoCost {
  return { requests: 0, readUnits: 0, writeUnits: 0, itemsWritten: 0, itemsRead: 0 };
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
      if (cost) {
        if (cost.budget && cost.requests >= cost.budget.requests) throw overBudget(cost, 'requests');
        cost.requests += 1;
      }
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
        cost.itemsRead += itemsReadBy(result.output as ReadOutput);
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
        if (cost.budget && cost.itemsRead > cost.budget.itemsRead) throw overBudget(cost, 'itemsRead');
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

interface ReadOutput {
  Item?: unknown;
  Items?: unknown[];
  Responses?: Record<string, unknown[]>;
}

/** How many items a read command returned. */
function itemsReadBy(output: ReadOutput | undefined): number {
  if (!output) return 0;
  if (Array.isArray(output.Items)) return output.Items.length;
  if (output.Responses && typeof output.Responses === 'object') {
    return Object.values(output.Responses).reduce((sum, items) => sum + (Array.isArray(items) ? items.length : 0), 0);
  }
  return output.Item ? 1 : 0;
}

const BUDGET_NAMES = {
  requests: ['DynamoDB requests', 'MAX_OPERATION_REQUESTS'],
  itemsRead: ['items read from DynamoDB', 'MAX_OPERATION_ITEMS_READ'],
} as const;

/**
 * The refusal of an operation over its budget (the first one, kept for the whole operation):
 * every later call of the operation fails the same way, and its answer carries no data.
 */
function overBudget(cost: DynamoCost, what: keyof ReadBudget): TreeError {
  const [unit, variable] = BUDGET_NAMES[what];
  cost.overBudget ??= tooComplex(
    `the operation went over its runtime budget of ${cost.budget![what]} ${unit} (${variable}); ask for fewer nodes (a lower \`first\`, fewer nested levels) or raise ${variable}`,
  );
  return cost.overBudget;
}
