import { HISTORY_SK_PREFIX } from '../../../dynamodb/keys.js';
import type { ChangeRecord, NewestFirstPage } from '../../treeStore.js';
import type { EngineContext } from '../core/engineContext.js';
import { readNodeHistory, readTreeHistory } from './changeLog.js';
import { positionIn, withCursors } from '../../cursor.js';
import { readablePage } from './readablePage.js';

const NOT_THIS_HISTORY = 'after is not a cursor of this history';

/**
 * A page of history with its cursors. A cursor names its history (a node's, `hn`, or a tree's,
 * `ht`) and the position after it (the node history item's sort key, or the number in the
 * tree's log); one of another history, tenant or list is BAD_USER_INPUT.
 */
export async function historyPage(
  ctx: Pick<EngineContext, 'doc' | 'table' | 'cursors' | 'treeAccess'>,
  of: { nodeId: string } | { rootId: string },
  first: number,
  after: string | null | undefined,
): Promise<NewestFirstPage<ChangeRecord>> {
  if ('nodeId' in of) {
    const list = { t: 'hn', n: of.nodeId };
    const start = after == null ? undefined : positionIn(ctx.cursors, after, list, isHistorySk, NOT_THIS_HISTORY);
    const page = await readablePage(
      first,
      start,
      async (position, limit) => {
        const read = await readNodeHistory(ctx, of.nodeId, limit, position);
        const entries = read.entries.map(({ record, after: at }) => ({ value: record, after: at }));
        return { entries, read: entries.length, last: entries.at(-1)?.after, more: read.hasNextPage };
      },
      (record) => readableChange(ctx.treeAccess, record),
    );
    return withCursors(ctx.cursors, list, page);
  }
  const list = { t: 'ht', r: of.rootId };
  const start = after == null ? undefined : positionIn(ctx.cursors, after, list, isSeq, NOT_THIS_HISTORY);
  if (ctx.treeAccess && ctx.treeAccess(of.rootId) === null) return { edges: [], hasNextPage: false, endCursor: null };
  const read = await readTreeHistory(ctx, of.rootId, first, start === undefined ? undefined : Number(start));
  const entries = read.entries.map(({ record, after: at }) => ({ value: record, after: at }));
  return withCursors(ctx.cursors, list, { entries, hasNextPage: read.hasNextPage, end: entries.at(-1)?.after });
}

/**
 * Whether a caller sees a change in a node's history: made in a tree it may read, or a move
 * between trees whose other end it may read (the change is in that tree's log too).
 */
const readableChange = (treeAccess: EngineContext['treeAccess'], record: ChangeRecord): boolean =>
  !treeAccess ||
  treeAccess(record.rootId) !== null ||
  (record.other !== undefined && treeAccess(record.other.rootId) !== null);

const isHistorySk = (s: unknown): boolean =>
  typeof s === 'string' && s.startsWith(HISTORY_SK_PREFIX) && s.length <= 400;
const isSeq = (s: unknown): boolean => typeof s === 'string' && /^[1-9][0-9]{0,14}$/.test(s);
