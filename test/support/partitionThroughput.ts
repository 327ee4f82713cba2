import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import type { DynamoOptions } from '../../src/dynamodb/client.js';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { unitsOf } from '../../src/dynamodb/awsWriteUnits.js';
import { itemSize } from '../../src/dynamodb/itemSize.js';
import { scalar, transactionCancelled } from './transactionConflicts.js';

/**
 * What DynamoDB does and DynamoDB Local does not: a partition serves at most 1,000 write units a
 * second, and a write past that is throttled (`ProvisionedThroughputExceededException`, which the
 * SDK retries with backoff; in a transaction, `TransactionCanceledException` with reason
 * `ThrottlingError` for each action on the hot partition, which it does not). On-demand
 * capacity does not lift it, and splitting a hot partition never splits one partition key's
 * item so: the emulation takes each partition key value for one partition, the worst case for
 * an item collection that DynamoDB could split by sort key, and the exact one for a single item.
 *
 * `PartitionThroughput` is the pure part: the write units each partition key took in the last
 * second (AWS's formula, `src/dynamodb/awsWriteUnits.ts`, on the size of what the write sends).
 * The SDK middleware (`throughputMiddleware`) runs inside the SDK's retries, so a throttled
 * single-item write is retried as on AWS; the benchmarks' proxy can use the class on the wire.
 */
export class PartitionThroughput {
  private readonly taken = new Map<string, Array<{ at: number; units: number }>>();
  /** Writes throttled so far (each attempt), and let through. */
  throttled = 0;
  passed = 0;
  /** The most units one partition took in one second, so far. */
  peak = 0;
  /** The units each partition took so far, throttled writes left out. */
  readonly totals = new Map<string, number>();

  constructor(
    /** A partition's write units a second (DynamoDB's: 1,000); Infinity lets everything through. */
    public unitsPerSecond = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Takes the units of one write, by partition key: the keys over their throughput if it were
   * let through (then it takes nothing), else none.
   */
  take(units: ReadonlyMap<string, number>): string[] {
    const now = this.now();
    const over = [...units].filter(([key, more]) => this.usedBy(key, now) + more > this.unitsPerSecond);
    if (over.length > 0) {
      this.throttled++;
      return over.map(([key]) => key);
    }
    this.passed++;
    for (const [key, more] of units) {
      this.taken.get(key)!.push({ at: now, units: more });
      this.totals.set(key, (this.totals.get(key) ?? 0) + more);
      this.peak = Math.max(this.peak, this.usedBy(key, now));
    }
    return [];
  }

  /** The units partition `key` took in the second before `now` (older ones forgotten). */
  private usedBy(key: string, now: number): number {
    const window = (this.taken.get(key) ?? []).filter((entry) => now - entry.at < 1000);
    this.taken.set(key, window);
    return window.reduce((sum, entry) => sum + entry.units, 0);
  }
}

/** The units a write command's actions take, by partition (`table|pk`), and each action's partition. */
export function writeUnitsByPartition(
  command: string,
  input: Record<string, unknown>,
): { units: Map<string, number>; partitions: string[] } {
  const transactional = command.startsWith('TransactWrite');
  const actions: Array<{ table?: string; item: Record<string, unknown> }> = [];
  if (transactional) {
    for (const action of (input.TransactItems ?? []) as Array<Record<string, Body>>) {
      const body = action.Put ?? action.Update ?? action.Delete ?? action.ConditionCheck;
      if (body)
        actions.push({ table: body.TableName, item: { ...body.Key, ...body.Item, ...body.ExpressionAttributeValues } });
    }
  } else if (command.startsWith('BatchWrite')) {
    for (const [table, requests] of Object.entries((input.RequestItems ?? {}) as Record<string, BatchRequest[]>))
      for (const r of requests) actions.push({ table, item: r.PutRequest?.Item ?? r.DeleteRequest?.Key ?? {} });
  } else if (/^(Put|Update|Delete)Item/.test(command)) {
    const body = input as Body;
    actions.push({ table: body.TableName, item: { ...body.Key, ...body.Item, ...body.ExpressionAttributeValues } });
  }
  const units = new Map<string, number>();
  const partitions = actions.map(({ table, item }) => {
    const key = `${table}|${scalar(item.pk)}`;
    units.set(key, (units.get(key) ?? 0) + unitsOf(itemSize(native(item)), transactional));
    return key;
  });
  return { units, partitions };
}

interface Body {
  TableName?: string;
  Key?: Record<string, unknown>;
  Item?: Record<string, unknown>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

interface BatchRequest {
  PutRequest?: { Item: Record<string, unknown> };
  DeleteRequest?: { Key: Record<string, unknown> };
}

/** An item in document form, from DynamoDB JSON (as the SDK sends it) when it is. */
function native(item: Record<string, unknown>): Record<string, unknown> {
  const marshalled = Object.values(item).every(
    (v) => v !== null && typeof v === 'object' && Object.keys(v).length === 1,
  );
  try {
    return marshalled ? unmarshall(item as never) : item;
  } catch {
    return item;
  }
}

/**
 * The SDK middleware that throttles writes past `throughput`, as DynamoDB does per partition;
 * combined with the test's own middleware when there is one. It sits inside the SDK's retries.
 */
export function throughputMiddleware(
  throughput: PartitionThroughput,
  also?: DynamoOptions['middleware'],
): NonNullable<DynamoOptions['middleware']> {
  return (stack) => {
    also?.(stack);
    stack.add(
      (next, context) => async (args) => {
        const command = String(context.commandName);
        const { units, partitions } = writeUnitsByPartition(command, args.input as Record<string, unknown>);
        const over = units.size > 0 ? throughput.take(units) : [];
        if (over.length === 0) return next(args);
        const $metadata = { httpStatusCode: 400 };
        const message = 'The level of configured provisioned throughput for the table was exceeded';
        if (!command.startsWith('TransactWrite'))
          throw new ProvisionedThroughputExceededException({ message, $metadata });
        throw transactionCancelled(
          partitions.map((key) =>
            over.includes(key) ? { Code: 'ThrottlingError', Message: message } : { Code: 'None' },
          ),
        );
      },
      { step: 'finalizeRequest', name: 'partitionThroughput', priority: 'low' },
    );
  };
}
