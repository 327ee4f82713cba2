import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { decodeItem } from './decodeItem.js';
import { keyQuery } from './keyQuery.js';
import { DEFAULT_TENANT_SK, sortKeyOf, STRATEGIES_PK, TENANT_PATTERN, type Item, type Key } from './keys.js';
import { queryItems } from './query.js';
import { TransactionBuilder } from './transactionBuilder.js';
import { writeAlone } from './writeAlone.js';

/**
 * The record, in the table, of the strategy a tenant's trees are built for: the strategy whose
 * projection (stored paths, level items, closure rows, ranges) its items hold. A process of
 * another strategy would find none of it (every read of a path then fails), so a start compares
 * its TREE_STRATEGY with every record first. One item per tenant with a record, in the global
 * partition STRATEGIES: a reindex works on one tenant (`tree reindex --tenant T`), and a server
 * serves every tenant of the table, so it reads them all, in one Query.
 */
export interface StrategyRecord {
  /** null: the default tenant, whose record also stands for every tenant without one of its own. */
  tenant: string | null;
  strategy: string;
  /**
   * How it came to be: `start`, the first start on a table without trees; `found`, the first
   * start of this version on a table with trees; `reindex`, the end of a reindex to it.
   */
  by: 'start' | 'found' | 'reindex';
  /** When (ISO-8601). */
  at: string;
}

/** The key of a tenant's record (null: the default tenant's). */
export const strategyRecordKey = (tenant: string | null): Key => ({
  pk: STRATEGIES_PK,
  sk: tenant ?? DEFAULT_TENANT_SK,
});

/** A tenant's record as stored (strategyRecordItem). */
export const STRATEGY_RECORD_ITEM = z.object({
  sk: z.string(),
  strategy: z.string(),
  by: z.string().optional(),
  at: z.string().optional(),
});

/**
 * A record as read (undefined: an item of STRATEGIES whose key names no tenant), decoded
 * (MalformedItem, naming its key, when it is not one).
 */
export function strategyRecordOf(item: Item): StrategyRecord | undefined {
  const sk = sortKeyOf(item);
  const tenant = sk === DEFAULT_TENANT_SK ? null : TENANT_PATTERN.test(sk) ? sk : undefined;
  if (tenant === undefined) return undefined;
  const stored = decodeItem(STRATEGY_RECORD_ITEM, item);
  const by = stored.by === 'start' || stored.by === 'found' ? stored.by : 'reindex';
  return { tenant, strategy: stored.strategy, by, at: stored.at ?? '' };
}

/** Every tenant's record, the default tenant's first (a Query of a few items). */
export async function readStrategyRecords(doc: DynamoDBDocumentClient, table: string): Promise<StrategyRecord[]> {
  const { items } = await queryItems(doc, keyQuery(table, { pk: STRATEGIES_PK }));
  const records = items.flatMap((item) => strategyRecordOf(item) ?? []);
  return records.sort((a, b) => (a.tenant === null ? -1 : b.tenant === null ? 1 : a.tenant.localeCompare(b.tenant)));
}

/** The item of a record, dated now: for a Put, alone or in a transaction (a reindex's last). */
export function strategyRecordItem(record: Omit<StrategyRecord, 'at'>): Item & Key {
  const { tenant: _tenant, ...fields } = record;
  return { ...strategyRecordKey(record.tenant), ...fields, at: new Date().toISOString() };
}

/**
 * Records the strategy of `record.tenant` with a Put of its own; with `ifMissing`, only when it
 * has no record yet: false then when one was there.
 */
export function putStrategyRecord(
  doc: DynamoDBDocumentClient,
  table: string,
  record: Omit<StrategyRecord, 'at'>,
  { ifMissing = false } = {},
): Promise<boolean> {
  const conditions = ifMissing ? [{ notExists: true } as const] : [];
  return writeAlone(doc, new TransactionBuilder(table).put(strategyRecordItem(record), ...conditions).build()[0]);
}
