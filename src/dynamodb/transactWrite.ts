import {
  TransactWriteCommand,
  type TransactWriteCommandInput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { TreeError } from '../errors.js';
import type { Item, Key } from './keys.js';
import { ConditionFailed } from './conditionFailed.js';
import { backoffDelay, sleep } from './backoff.js';
import { callDynamo } from './serviceErrors.js';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export const TRANSACTION_LIMIT = 100;
/** Attempts of a transaction whose conditions keep failing (startReindex) before CONFLICT. */
export const MAX_CONFLICT_ATTEMPTS = 6;
/**
 * How long a transaction is tried again while DynamoDB cancels it for contention only (another
 * transaction in flight names one of its items) before CONFLICT. Writes that share an item (two
 * moves under one parent: its childCount) are serialized there by DynamoDB: they wait their turn
 * rather than fail, and only a write that cannot get its turn in this time gives up.
 */
export const CONTENTION_WAIT_MS = 5000;
/** The backoff between contention attempts: full jitter up to min(cap, base * 2^attempt). */
const CONTENTION_BACKOFF = { baseMs: 10, capMs: 200 };

/** The key of a transaction's action. */
const keyOfAction = (item: TransactItem): Key => {
  const key = item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key ?? {};
  return { pk: String(key.pk), sk: String(key.sk) };
};

interface CancellationReason {
  Code?: string;
}

/**
 * TransactWriteItems with the retry rule of DynamoDB's docs: retry with jittered backoff only
 * when every cancellation reason is contention (None or TransactionConflict), for up to
 * CONTENTION_WAIT_MS; a failed condition means the tree changed and is reported as
 * ConditionFailed for the caller to re-read and re-plan. Past the wait: CONFLICT. A transaction
 * cancelled because a partition it names is over its throughput (ThrottlingError) backs off
 * longer and is tried again as long; past that, SERVICE_UNAVAILABLE, as a throttled single call.
 */
export async function transactWrite(doc: DynamoDBDocumentClient, items: TransactItem[]): Promise<void> {
  if (items.length === 0) return;
  if (items.length > TRANSACTION_LIMIT) {
    throw new Error(`transaction of ${items.length} actions exceeds ${TRANSACTION_LIMIT}`);
  }
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      await callDynamo(() => doc.send(new TransactWriteCommand({ TransactItems: items })));
      return;
    } catch (error) {
      const cause = cancelledFor(error);
      if (cause === 'condition') {
        const reasons = (error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
        const failed = reasons.map((r, i) => (r.Code === 'ConditionalCheckFailed' ? i : -1)).filter((i) => i >= 0);
        throw new ConditionFailed(
          failed,
          failed.map((i) => keyOfAction(items[i]!)),
        );
      }
      if (cause === undefined) throw error;
      const backoff = cause === 'throttling' ? THROTTLING_BACKOFF : CONTENTION_BACKOFF;
      const delay = backoffDelay(attempt, backoff.baseMs, backoff.capMs);
      if (Date.now() - started + delay > CONTENTION_WAIT_MS) {
        throw cause === 'throttling'
          ? new TreeError('SERVICE_UNAVAILABLE', 'DynamoDB is unavailable; try again later', {
              cause: 'ThrottlingError',
            })
          : new TreeError('CONFLICT', 'the tree is busy with concurrent changes; try again');
      }
      await sleep(delay);
    }
  }
}

/** The backoff between attempts of a transaction cancelled for a partition over its throughput. */
const THROTTLING_BACKOFF = { baseMs: 50, capMs: 1000 };

const CONTENTION = new Set([undefined, 'None', 'TransactionConflict']);
const THROTTLING = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/**
 * Why a transaction was cancelled: a failed condition, contention alone (another transaction in
 * flight names one of its items), a partition over its throughput (with contention or not), or
 * undefined for anything else (passed on).
 */
function cancelledFor(error: unknown): 'condition' | 'contention' | 'throttling' | undefined {
  const e = error as { name?: string; CancellationReasons?: CancellationReason[] };
  if (e.name === 'TransactionConflictException' || e.name === 'TransactionInProgressException') return 'contention';
  if (e.name !== 'TransactionCanceledException') return undefined;
  const codes = (e.CancellationReasons ?? []).map((r) => r.Code);
  if (codes.includes('ConditionalCheckFailed')) return 'condition';
  if (codes.every((code) => CONTENTION.has(code))) return 'contention';
  if (codes.every((code) => CONTENTION.has(code) || THROTTLING.has(code!))) return 'throttling';
  return undefined;
}

/**
 * Puts `items` unconditionally, ten to a transaction (items of up to 400 KB: under DynamoDB's
 * 4 MB a transaction), one transaction after the other: the packs written ahead of the
 * transaction that makes them reachable (a delete's kept nodes, an import's list).
 */
export async function putAll(
  doc: DynamoDBDocumentClient,
  table: string,
  items: ReadonlyArray<Item & Key>,
): Promise<void> {
  for (let i = 0; i < items.length; i += 10) {
    await transactWrite(
      doc,
      items.slice(i, i + 10).map((Item) => ({ Put: { TableName: table, Item } })),
    );
  }
}
