import { nextCount } from '../../../dynamodb/counter.js';
import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { writeAlone } from '../../../dynamodb/writeAlone.js';
import { ConditionFailed } from '../../../dynamodb/conditionFailed.js';
import { keyString } from '../../../dynamodb/keys.js';
import { itemSize } from '../../../dynamodb/itemSize.js';
import { changeTime } from '../core/changeTime.js';
import type { EngineContext } from '../core/engineContext.js';
import {
  changeItem,
  changeKey,
  givenUpItem,
  headKey,
  historyItem,
  inHistory,
  type ChangeDraft,
  type ChangeFacts,
  type ChangeRecord,
} from './changeRecord.js';

/**
 * Records changes with the write that makes them: each draft takes the next number of its
 * tree's sequence (one UpdateItem on the tree's HEAD, outside any transaction: it never cancels
 * one), and its record rides in the write's transaction on the condition that the number is
 * still free. The write commits both or neither; when it fails, its numbers are given up (a
 * NONE record) so that readers do not wait for them. A reader that waits too long for a number
 * gives it up itself (changeLog.ts): the write's transaction then fails on its record alone,
 * and commits again with new numbers (at most MAX_RENUMBERS times). So a number holds exactly
 * one committed change or none, for good.
 *
 * `commit` gets the plan of the records, to add to a copy of its transaction (withRecords), and
 * commits it; it may be called again, with other numbers. Two drafts with the same facts are one
 * change in two trees (a move between trees): each record names the other. The change is told
 * to this process's subscribers once committed (EngineContext.onChanged).
 */
export async function recorded<T>(
  ctx: EngineContext,
  drafts: readonly ChangeDraft[],
  commit: (planRecords: (tx: TransactionBuilder) => void) => Promise<T>,
): Promise<T> {
  if (drafts.length === 0) return commit(() => {});
  for (let attempt = 0; ; attempt++) {
    const records = await numbered(ctx, drafts);
    const expiresAt = expiryOf(ctx, Date.now());
    const keys = new Set(records.map((r) => keyString(changeKey(r.rootId, r.seq))));
    try {
      const result = await commit((tx) => {
        for (const record of records) tx.put(changeItem(record, expiresAt), { notExists: true });
        for (const record of historyOf(records)) tx.put(historyItem(record, expiresAt));
      });
      ctx.onChanged?.(ctx.tenant, records);
      return result;
    } catch (error) {
      await Promise.all(records.map((record) => giveUpNumber(ctx, record.rootId, record.seq)));
      const renumber =
        error instanceof ConditionFailed &&
        error.failedKeys.length > 0 &&
        error.failedKeys.every((key) => keys.has(keyString(key)));
      if (!renumber || attempt + 1 >= MAX_RENUMBERS) throw error;
    }
  }
}

/**
 * A copy of a write's transaction with its records planned (`tx` stays as it is): `recorded`
 * may commit again with new numbers, and each attempt must carry its own records only.
 */
export function withRecords(tx: TransactionBuilder, planRecords: (tx: TransactionBuilder) => void): TransactionBuilder {
  const copy = tx.clone();
  planRecords(copy);
  return copy;
}

/**
 * The items that recording `drafts` adds to a write's transaction: each record, and the copy of
 * each change in its node's history (one for a change recorded in two trees).
 */
export const recordItems = (drafts: readonly ChangeDraft[]): number =>
  drafts.length + new Set(drafts.filter((d) => inHistory(d.facts)).map((d) => d.facts)).size;

/**
 * The bytes that recording `drafts` adds to a write's transaction, at most (recordItems' items):
 * a record carries its node twice (`node` and `prior`), so it weighs as much as the node's data.
 */
export const recordBytes = (ctx: Pick<EngineContext, 'by'>, drafts: readonly ChangeDraft[]): number =>
  drafts.reduce((sum, d) => {
    const record: ChangeRecord = {
      ...d.facts,
      rootId: d.rootId,
      seq: Number.MAX_SAFE_INTEGER,
      at: AT,
      by: ctx.by ?? null,
    };
    const item = changeItem({ ...record, other: { rootId: d.rootId, seq: record.seq } }, 0);
    // The history copy's key is the longer: it adds the time, the number and the tree's id.
    const historyKeyBytes = HISTORY_KEY_ROOM + Buffer.byteLength(d.rootId);
    return sum + (inHistory(d.facts) ? 2 * itemSize(item) + historyKeyBytes : itemSize(item));
  }, 0);

/** A time as long as any `at` (an ISO date), and the room of a history key's fixed parts. */
const AT = '2000-01-01T00:00:00.000Z';
const HISTORY_KEY_ROOM = 128;

/** Whether a write's transaction `tx` also holds its change records (recordItems, recordBytes) and `more`. */
export const holdsRecords = (
  ctx: Pick<EngineContext, 'by' | 'transactionItems'>,
  tx: Pick<TransactionBuilder, 'holds'>,
  drafts: readonly ChangeDraft[],
  more: { size: number; bytes: number } = { size: 0, bytes: 0 },
): boolean =>
  tx.holds(
    { size: more.size + recordItems(drafts), bytes: more.bytes + recordBytes(ctx, drafts) },
    ctx.transactionItems,
  );

/** The records whose copy goes to their node's history: one per change (a twin's first). */
const historyOf = (records: readonly ChangeRecord[]): ChangeRecord[] =>
  records.filter(
    (r, i) => inHistory(r) && !records.slice(0, i).some((o) => o.rootId === r.other?.rootId && o.seq === r.other.seq),
  );

/** How many times a write commits again when readers gave its numbers up before it committed. */
const MAX_RENUMBERS = 3;

/** The drafts, each at the next number of its tree's sequence, twins naming each other. */
async function numbered(ctx: EngineContext, drafts: readonly ChangeDraft[]): Promise<ChangeRecord[]> {
  const seqs = await Promise.all(drafts.map((d) => nextSeq(ctx, d.rootId)));
  const now = Date.now();
  return drafts.map((d, i) => {
    const twin = drafts.findIndex((other, j) => j !== i && other.facts === d.facts);
    return {
      ...d.facts,
      rootId: d.rootId,
      seq: seqs[i]!,
      at: changeAt(d.facts, now),
      by: ctx.by ?? null,
      ...(twin >= 0 ? { other: { rootId: drafts[twin]!.rootId, seq: seqs[twin]! } } : {}),
    };
  });
}

/**
 * When a change happened, on its node's hybrid clock (core/changeTime.ts): a change that leaves
 * a node is at the node's new updatedAt (its write took it from changeTime, so that the next
 * change of the node reads it with the node); a delete is past the node's last change; a change
 * without a node (a job's progress) is at this process's clock.
 */
const changeAt = (facts: ChangeFacts, now: number): string =>
  facts.node ? facts.node.updatedAt : changeTime(facts.prior, now);

/** A change of one tree (the common case). */
export const draft = (rootId: string, facts: ChangeFacts): ChangeDraft => ({ rootId, facts });

/**
 * When a change recorded now expires (epoch seconds): after the longer of CHANGE_RETENTION_HOURS
 * (live subscribers resume within it) and HISTORY_RETENTION_DAYS (history lists it).
 */
export const expiryOf = (ctx: Pick<EngineContext, 'changeRetentionMs'>, now: number): number =>
  Math.ceil((now + ctx.changeRetentionMs) / 1000);

/** The next number of the tree's sequence (an atomic counter: no condition, no conflict). */
const nextSeq = (ctx: EngineContext, rootId: string): Promise<number> =>
  nextCount(ctx.doc, ctx.table, headKey(rootId), 'seq');

/**
 * Gives up number `seq` of a tree's sequence unless a record holds it: true when this gave it
 * up, false when a record holds it (a change, or a NONE) or DynamoDB did not answer. Best
 * effort for a write that failed: a reader gives the number up later if this did not.
 */
export async function giveUpNumber(
  ctx: Pick<EngineContext, 'doc' | 'table' | 'changeRetentionMs'>,
  rootId: string,
  seq: number,
): Promise<boolean> {
  const put = new TransactionBuilder(ctx.table).put(givenUpItem(rootId, seq, expiryOf(ctx, Date.now())), {
    notExists: true,
  });
  return writeAlone(ctx.doc, put.build()[0]).catch(() => false);
}
