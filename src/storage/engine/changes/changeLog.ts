import { getItem } from '../../../dynamodb/batchGet.js';
import { keyQuery } from '../../../dynamodb/keyQuery.js';
import { HISTORY_SK_PREFIX, sortKeyOf } from '../../../dynamodb/keys.js';
import { queryItems } from '../../../dynamodb/query.js';
import type { EngineContext } from '../core/engineContext.js';
import type { ChangeStart, ChangesRead, HistoryPage } from '../../treeStore.js';
import { changeFromItem, changeKey, changePk, inHistory, seqOf, seqSk, type ChangeRecord } from './changeRecord.js';

const LAST_SK = seqSk(Number.MAX_SAFE_INTEGER);

/**
 * Reads the changes of the tree of `rootId` after number `after` (one strongly consistent Query
 * per 1 MB, at most `limit` items), stopping before the first number missing: nothing is ever
 * passed over, so a reader that goes on from `last` sees every change once, in order.
 */
export async function readChangesAfter(
  ctx: Pick<EngineContext, 'doc' | 'table'>,
  rootId: string,
  after: number,
  limit: number,
): Promise<ChangesRead> {
  const query = keyQuery(ctx.table, { pk: changePk(rootId), sk: { between: [seqSk(after + 1), LAST_SK] } });
  const { items, lastKey } = await queryItems(ctx.doc, query, limit);
  const more = lastKey !== undefined;
  const changes: ChangeRecord[] = [];
  let last = after;
  for (const [i, item] of items.entries()) {
    const seq = seqOf(item);
    if (seq !== last + 1)
      return { changes, last, missing: last + 1, more: false, holes: holesIn(items.slice(i), last) };
    last = seq;
    const record = changeFromItem(item);
    if (record) changes.push(record);
  }
  return { changes, last, more };
}

/** Pure. The numbers after `last` that none of `items` (read in order) holds, below the highest. */
function holesIn(items: readonly Record<string, unknown>[], last: number): number[] {
  const holes: number[] = [];
  let expected = last + 1;
  for (const item of items) {
    const seq = seqOf(item);
    for (; expected < seq; expected++) holes.push(expected);
    expected = seq + 1;
  }
  return holes;
}

/** How many of a log's last records the start of a subscriber reads (one Query). */
const START_WINDOW = 100;

/**
 * Where a new reader of the tree's log starts so as to get exactly the changes committed from
 * now on: a change in flight holds no record yet, and may hold a number below records already
 * committed. So: after the last number below the first missing one, save the records above it
 * (committed already). One Query of the last START_WINDOW records, backwards: only the numbers
 * between them are looked at, a number missing below them is taken as given up (a write in
 * flight while that many later ones committed is the rare straggler a reader gives up past its
 * patience anyway, and that then commits with a new number).
 */
export async function readChangeStart(ctx: Pick<EngineContext, 'doc' | 'table'>, rootId: string): Promise<ChangeStart> {
  const query = keyQuery(ctx.table, { pk: changePk(rootId), sk: { between: [seqSk(0), LAST_SK] }, backwards: true });
  const { items } = await queryItems(ctx.doc, query, START_WINDOW);
  return startAmong(items.map(seqOf).reverse());
}

/** Pure. The start among the numbers that hold records (ascending): before the first one missing between them. */
export function startAmong(seqs: readonly number[]): ChangeStart {
  const gap = seqs.findIndex((seq, i) => i > 0 && seq !== seqs[i - 1]! + 1);
  if (gap < 0) return { seq: seqs.at(-1) ?? 0, skip: [] };
  return { seq: seqs[gap - 1]!, skip: seqs.slice(gap) };
}

/**
 * A page of a node's history, newest first: the copies of its changes (`C#<id>`, `H#...`), read
 * backwards after the sort key `after`; one Query.
 */
export async function readNodeHistory(
  ctx: Pick<EngineContext, 'doc' | 'table'>,
  nodeId: string,
  first: number,
  after: string | undefined,
): Promise<HistoryPage> {
  const query = keyQuery(ctx.table, {
    pk: changePk(nodeId),
    sk: { beginsWith: HISTORY_SK_PREFIX },
    backwards: true,
    ...(after === undefined ? {} : { after }),
  });
  const { items } = await queryItems(ctx.doc, query, first + 1);
  // A node's history holds copies of changes, never a number given up.
  const entries = items.slice(0, first).map((item) => ({ record: changeFromItem(item)!, after: sortKeyOf(item) }));
  return { entries, hasNextPage: items.length > first };
}

/**
 * A page of a tree's history, newest first: its log read backwards before number `before`, the
 * numbers given up and the records not in history (a job's progress) passed over; as many
 * Queries as it takes to fill the page (each reads a page's worth more).
 */
export async function readTreeHistory(
  ctx: Pick<EngineContext, 'doc' | 'table'>,
  rootId: string,
  first: number,
  before: number | undefined,
): Promise<HistoryPage> {
  const entries: HistoryPage['entries'] = [];
  if (before !== undefined && before <= 1) return { entries, hasNextPage: false };
  let upTo = before === undefined ? LAST_SK : seqSk(before - 1);
  for (;;) {
    const query = keyQuery(ctx.table, { pk: changePk(rootId), sk: { between: [seqSk(1), upTo] }, backwards: true });
    const { items, lastKey } = await queryItems(ctx.doc, query, first + 1);
    for (const item of items) {
      const record = changeFromItem(item);
      if (!record || !inHistory(record)) continue;
      if (entries.length === first) return { entries, hasNextPage: true };
      entries.push({ record, after: String(record.seq) });
    }
    if (lastKey === undefined || items.length === 0) return { entries, hasNextPage: false };
    upTo = seqSk(seqOf(items.at(-1)!) - 1);
  }
}

/** The change at number `seq` of the tree of `rootId` (one strongly consistent read); null when none holds it. */
export async function readChange(
  ctx: Pick<EngineContext, 'doc' | 'table'>,
  rootId: string,
  seq: number,
): Promise<ChangeRecord | null> {
  const item = await getItem(ctx.doc, ctx.table, changeKey(rootId, seq));
  return item ? changeFromItem(item) : null;
}
