import { keyQuery } from '../../../dynamodb/keyQuery.js';
import { queryItems } from '../../../dynamodb/query.js';
import type { EngineContext } from '../core/engineContext.js';
import type { ChangesRead } from '../../treeStore.js';
import { changePk, recordOf, seqOf, seqSk, type ChangeRecord } from './changeRecord.js';

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
  for (const item of items) {
    const seq = seqOf(item);
    if (seq !== last + 1) return { changes, last, missing: last + 1, more: false };
    last = seq;
    const record = recordOf(item);
    if (record) changes.push(record);
  }
  return { changes, last, more };
}

/** The last number of the tree's log that a record holds (a change or a number given up); 0 when none. */
export async function lastChange(ctx: Pick<EngineContext, 'doc' | 'table'>, rootId: string): Promise<number> {
  const query = keyQuery(ctx.table, { pk: changePk(rootId), sk: { between: [seqSk(0), LAST_SK] }, backwards: true });
  const { items } = await queryItems(ctx.doc, query, 1);
  return items[0] ? seqOf(items[0]) : 0;
}
