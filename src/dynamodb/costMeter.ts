import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tooComplex, type TreeError } from '../errors.js';
import { awsWriteUnits, ItemImages } from './awsWriteUnits.js';

/**
 * What one GraphQL operation cost in DynamoDB, counted by the operation's own document client
 * (meteredDoc). `requests` counts attempts, retries included.
 */
export interface DynamoCost {
  requests: number;
  /**
   * Of `requests`, those a read made again because it spanned a job's start or close
   * (repeatedDoc): they depend on how long the read took, not on what it reads.
   */
  repeatedRequests: number;
  /** Of `itemsRead`, those the repeated requests read. */
  repeatedItemsRead: number;
  readUnits: number;
  writeUnits: number;
  /** What the writes would consume on AWS (awsWriteUnits.ts): DynamoDB Local's writeUnits is not the bill. */
  awsWriteUnits: number;
  /** Items put, updated or deleted (condition checks excluded), once per logical call. */
  itemsWritten: number;
  /** Items returned by reads (GetItem, BatchGetItem, Query, Scan). */
  itemsRead: number;
  /** The runtime budget of a read-only operation: no call past it is made. */
  budget?: ReadBudget;
  /** The refusal, once the operation went over its budget. */
  overBudget?: TreeError;
  /**
   * The items the operation saw, for the sizes of its writes: given to a mutation only (the cost
   * plugin), so that a query or a long-lived subscription keeps none of what it reads. Without
   * it, an item's size before a write is what the write sends.
   */
  images?: ItemImages;
}

export interface ReadBudget {
  /** DynamoDB requests (MAX_OPERATION_REQUESTS). */
  requests: number;
  /** Items read (MAX_OPERATION_ITEMS_READ). */
  itemsRead: number;
}

export function newCost(): DynamoCost {
  return {
    requests: 0,
    repeatedRequests: 0,
    repeatedItemsRead: 0,
    readUnits: 0,
    writeUnits: 0,
    awsWriteUnits: 0,
    itemsWritten: 0,
    itemsRead: 0,
  };
}

const WRITE_COMMANDS = /^(Put|Update|Delete|BatchWrite|TransactWrite)/;

interface CapacityEntry {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

interface Sent {
  input?: Record<string, unknown>;
  constructor: { name: string };
}

interface Answered {
  $metadata?: { attempts?: number };
  ConsumedCapacity?: CapacityEntry | CapacityEntry[];
}

/**
 * The document client of one operation: every call it sends adds to `cost` (asking DynamoDB for
 * the capacity it consumed), and none is sent once the operation is over its budget. Built per
 * request (TreeStore.scoped), so concurrent requests never mix their counts, without the
 * per-promise cost of an AsyncLocalStorage. Retries inside the SDK count as requests
 * (`$metadata.attempts`).
 */
export function meteredDoc(doc: DynamoDBDocumentClient, cost: DynamoCost): DynamoDBDocumentClient {
  const send = async (command: Sent, ...rest: unknown[]): Promise<unknown> => {
    if (cost.budget && cost.requests >= cost.budget.requests) throw overBudget(cost, 'requests');
    cost.requests += 1;
    const input = command.input;
    if (input && input.ReturnConsumedCapacity === undefined) input.ReturnConsumedCapacity = 'TOTAL';
    let output: Answered & ReadOutput;
    try {
      output = (await (doc.send as (...args: unknown[]) => Promise<Answered & ReadOutput>)(command, ...rest)) ?? {};
    } catch (error) {
      cost.requests += retries((error as Answered).$metadata);
      throw error;
    }
    cost.requests += retries(output.$metadata);
    const name = command.constructor.name;
    const isWrite = WRITE_COMMANDS.test(name);
    cost.itemsWritten += itemsWrittenBy(name, input ?? {});
    cost.itemsRead += itemsReadBy(output);
    if (cost.images && !projected(input ?? {})) seeRead(output, cost.images);
    if (isWrite) cost.awsWriteUnits += awsWriteUnits(name, input ?? {}, cost.images ?? new ItemImages());
    const consumed = output.ConsumedCapacity;
    for (const entry of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
      cost.readUnits += entry.ReadCapacityUnits ?? (isWrite ? 0 : (entry.CapacityUnits ?? 0));
      cost.writeUnits += entry.WriteCapacityUnits ?? (isWrite ? (entry.CapacityUnits ?? 0) : 0);
    }
    if (cost.budget && cost.itemsRead > cost.budget.itemsRead) throw overBudget(cost, 'itemsRead');
    return output;
  };
  return new Proxy(doc, {
    get: (target, property, receiver) =>
      property === 'send' ? send : property === COST ? cost : (Reflect.get(target, property, receiver) as unknown),
  });
}

/** How a metered client hands its cost to the clients wrapped over it (tenantDoc, repeatedDoc). */
const COST = Symbol('cost');

/**
 * `doc` for a read made again (engine/reads/visibleNodes.ts): its calls and the items they read
 * count in the operation's `repeatedRequests` and `repeatedItemsRead` as well as in its
 * `requests` and `itemsRead`. `doc` unchanged when it is not metered.
 */
export function repeatedDoc(doc: DynamoDBDocumentClient): DynamoDBDocumentClient {
  const cost = (doc as unknown as Record<symbol, DynamoCost | undefined>)[COST];
  if (!cost) return doc;
  const send = async (...args: unknown[]): Promise<unknown> => {
    let output: (Answered & ReadOutput) | undefined;
    try {
      output = (await (doc.send as (...args: unknown[]) => Promise<Answered & ReadOutput>)(...args)) ?? {};
      cost.repeatedItemsRead += itemsReadBy(output);
      return output;
    } catch (error) {
      output = error as Answered;
      throw error;
    } finally {
      cost.repeatedRequests += 1 + retries(output?.$metadata);
    }
  };
  return new Proxy(doc, {
    get: (target, property, receiver) =>
      property === 'send' ? send : (Reflect.get(target, property, receiver) as unknown),
  });
}

const retries = (metadata: Answered['$metadata']): number => Math.max(0, (metadata?.attempts ?? 1) - 1);

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

/** Whether a read asked for some attributes only: its items are no image of the stored ones. */
const projected = (input: Record<string, unknown>): boolean =>
  'ProjectionExpression' in input ||
  Object.values((input.RequestItems ?? {}) as Record<string, object>).some((t) => 'ProjectionExpression' in t);

/** Keeps the items a read returned, whole, for the sizes of the operation's later writes. */
function seeRead(output: ReadOutput, images: ItemImages): void {
  if (Array.isArray(output.Items)) images.saw(output.Items);
  else if (output.Responses) for (const items of Object.values(output.Responses)) images.saw(items);
  else if (output.Item) images.saw([output.Item]);
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
    `the operation went over its runtime budget of ${cost.budget![what]} ${unit} (${variable}); ` +
      `ask for fewer nodes (a lower \`first\`, fewer nested levels) or raise ${variable}`,
  );
  return cost.overBudget;
}
