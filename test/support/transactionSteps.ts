import { expect } from 'vitest';
import { TransactionBuilder } from '../../src/dynamodb/transactionBuilder.js';
import type { TransactItem } from '../../src/dynamodb/transactWrite.js';

/**
 * One transaction item, readable: its kind, its key, and its expressions with the
 * placeholders resolved (names as written, values as JSON).
 */
export interface Readable {
  kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  key: string;
  update?: string;
  condition?: string;
}

export function readable(item: TransactItem): Readable {
  const [kind, body] = Object.entries(item)[0] as [Readable['kind'], Record<string, unknown>];
  const names = (body.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (body.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const resolve = (expression: string) =>
    expression
      .replace(/#n\d+/g, (id) => names[id] ?? id)
      .replace(/:v\d+/g, (id) => JSON.stringify(values[id] instanceof Set ? [...values[id]] : values[id]));
  const key = (body.Key ?? body.Item) as { pk: string; sk: string };
  return {
    kind,
    key: `${key.pk} ${key.sk}`,
    ...(typeof body.UpdateExpression === 'string' ? { update: resolve(body.UpdateExpression) } : {}),
    ...(typeof body.ConditionExpression === 'string' ? { condition: resolve(body.ConditionExpression) } : {}),
  };
}

/** Builds one transaction with `build`, checks it writes each item once, and reads it back. */
export function plan(build: (tx: TransactionBuilder) => void) {
  const tx = new TransactionBuilder('tree');
  build(tx);
  const items = tx.build();
  const keys = items.map((item) => readable(item).key);
  // DynamoDB refuses two actions on one item in a transaction.
  expect(new Set(keys).size).toBe(keys.length);
  return { tx, items, steps: items.map(readable) };
}
