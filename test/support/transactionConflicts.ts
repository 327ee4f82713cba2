import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoOptions } from '../../src/dynamodb/client.js';

/**
 * What DynamoDB does and DynamoDB Local does not: a TransactWriteItems that names an item (a
 * ConditionCheck included) that another transaction in flight also names is cancelled with
 * `TransactionCanceledException`, reason `TransactionConflict` for that item. DynamoDB Local
 * runs one transaction at a time and never raises it, so without this no local test sees the
 * contention a shared item causes on AWS.
 *
 * `TransactionsInFlight` is the pure part: the items of the transactions in flight, by table
 * and key. The SDK middleware (`conflictMiddleware`, for servers in the test process) and the
 * benchmark's proxy (on the wire, for servers in processes of their own) both use it.
 */
export class TransactionsInFlight {
  private readonly items = new Map<string, number>();
  /** Transactions cancelled so far. */
  cancelled = 0;
  /** Transactions let through so far. */
  passed = 0;

  /**
   * Starts a transaction of `actions` (TransactItems, in the SDK's document form or DynamoDB
   * JSON): the reasons to cancel it with when one of its items is in flight (then it is not
   * started), or else the function that ends it.
   */
  begin(actions: readonly unknown[]): { conflict: CancellationReason[] } | { end: () => void } {
    const keys = actions.map(itemOf);
    if (keys.some((key) => key !== undefined && this.items.has(key))) {
      this.cancelled++;
      return {
        conflict: keys.map((key) =>
          key !== undefined && this.items.has(key)
            ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }
            : { Code: 'None' },
        ),
      };
    }
    this.passed++;
    const named = keys.filter((key): key is string => key !== undefined);
    for (const key of named) this.items.set(key, (this.items.get(key) ?? 0) + 1);
    return {
      end: () => {
        for (const key of named) {
          const left = (this.items.get(key) ?? 1) - 1;
          if (left === 0) this.items.delete(key);
          else this.items.set(key, left);
        }
      },
    };
  }
}

export interface CancellationReason {
  Code: string;
  Message?: string;
}

/** The transactions in flight of every server of this test process (their tables differ, or they share one). */
export const IN_FLIGHT = new TransactionsInFlight();

/** Whether the test run emulates transaction conflicts (the `conflicts` test project sets it). */
export const emulatesConflicts = (): boolean => process.env.TEST_TRANSACTION_CONFLICTS === 'true';

/**
 * The SDK middleware that cancels a TransactWriteItems naming an item of a transaction in flight
 * (`inFlight`), as DynamoDB does; combined with the test's own middleware when there is one.
 */
export function conflictMiddleware(
  inFlight: TransactionsInFlight = IN_FLIGHT,
  also?: DynamoOptions['middleware'],
): NonNullable<DynamoOptions['middleware']> {
  return (stack) => {
    also?.(stack);
    stack.add(
      (next, context) => async (args) => {
        if (!String(context.commandName).startsWith('TransactWrite')) return next(args);
        const input = args.input as { TransactItems?: unknown[] };
        const started = inFlight.begin(input.TransactItems ?? []);
        if ('conflict' in started) throw transactionCancelled(started.conflict);
        try {
          return await next(args);
        } finally {
          started.end();
        }
      },
      { step: 'initialize', name: 'transactionConflicts', priority: 'low' },
    );
  };
}

/** The table and key an action of a TransactItems list names (`table|pk|sk`). */
function itemOf(action: unknown): string | undefined {
  if (action === null || typeof action !== 'object') return undefined;
  for (const kind of ['Put', 'Update', 'Delete', 'ConditionCheck']) {
    const body = (action as Record<string, unknown>)[kind] as
      { TableName?: string; Item?: Record<string, unknown>; Key?: Record<string, unknown> } | undefined;
    if (!body) continue;
    const key = body.Key ?? body.Item ?? {};
    return `${body.TableName}|${scalar(key.pk)}|${scalar(key.sk)}`;
  }
  return undefined;
}

/** DynamoDB's cancellation of a transaction, with a reason per action, as the SDK throws it. */
export const transactionCancelled = (reasons: CancellationReason[]): TransactionCanceledException =>
  new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons
      .map((r) => r.Code)
      .join(', ')}]`,
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: reasons,
  });

/** A key attribute's value, in document form (`"x"`) or DynamoDB JSON (`{ S: "x" }`). */
export const scalar = (value: unknown): string =>
  value !== null && typeof value === 'object' && 'S' in value ? String((value as { S: unknown }).S) : String(value);
