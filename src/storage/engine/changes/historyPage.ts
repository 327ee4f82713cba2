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
  ctx: Pick<EngineContext, 'doc' | 'table' | 'cursors' | 'access'>,
  of: { nodeId: string } | { rootId: string },
  first: number,
  after: string | null | undefined,
): Promise<NewestFirstPage<ChangeRecord>> {
  const levels = ctx.access ? await ctx.access.levels() : undefined;
  const shown = (record: ChangeRecord) => !levels || readableChange(levels, record);
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
      shown,
    );
    return withCursors(ctx.cursors, list, page);
  }
  const list = { t: 'ht', r: of.rootId };
  const start = after == null ? undefined : positionIn(ctx.cursors, after, list, isSeq, NOT_THIS_HISTORY);
  if (!levels || levels([of.rootId]) !== null) {
    const read = await readTreeHistory(ctx, of.rootId, first, start === undefined ? undefined : Number(start));
    const entries = read.entries.map(({ record, after: at }) => ({ value: record, after: at }));
    return withCursors(ctx.cursors, list, { entries, hasNextPage: read.hasNextPage, end: entries.at(-1)?.after });
  }
  // A caller who may read only subtrees of the tree: the changes it may see.
  const page = await readablePage(
    first,
    start,
    async (position, limit) => {
      const read = await readTreeHistory(ctx, of.rootId, limit, position === undefined ? undefined : Number(position));
      const entries = read.entries.map(({ record, after: at }) => ({ value: record, after: at }));
      return { entries, read: entries.length, last: entries.at(-1)?.after, more: read.hasNextPage };
    },
    shown,
  );
  return withCursors(ctx.cursors, list, page);
}

/**
 * Whether a caller sees a change: it may read the node where it was or where it went (a move
 * between trees is in both trees' logs), as the record's places name them; a record without
 * places, on the node in its tree.
 */
export function readableChange(levels: (chain: readonly string[]) => unknown, record: ChangeRecord): boolean {
  const { nodeId, from, to, rootId } = record;
  const chains = [from, to].flatMap((place) => (place ? [[...place.path, nodeId]] : []));
  if (chains.length === 0) chains.push(nodeId === rootId ? [rootId] : [rootId, nodeId]);
  return chains.some((chain) => levels(chain) !== null);
}

const isHistorySk = (s: unknown): boolean =>
  typeof s === 'string' && s.startsWith(HISTORY_SK_PREFIX) && s.length <= 400;
const isSeq = (s: unknown): boolean => typeof s === 'string' && /^[1-9][0-9]{0,14}$/.test(s);
