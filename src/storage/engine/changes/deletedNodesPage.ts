import type { DeletedNode, NewestFirstPage } from '../../treeStore.js';
import type { EngineContext } from '../core/engineContext.js';
import { readDeletedPage, type DeletedEntry } from './deletedSubtree.js';
import { positionIn, withCursors } from '../../cursor.js';
import { readablePage } from './readablePage.js';

const LIST = { t: 'dn' } as const;

/** A list key (`<at>#<nodeId>`), as a cursor may name one. */
const isListKey = (s: unknown): boolean => typeof s === 'string' && s.length <= 200 && s.includes('#');

/**
 * A page of the deleted subtrees kept to be restored, newest first, whose root the caller may
 * read where it was: the other entries are passed over before the page and `hasNextPage` are
 * decided (readablePage.ts), and the cursors are sealed, so the list tells nothing of them.
 */
export async function deletedNodesPage(
  ctx: Pick<EngineContext, 'doc' | 'table' | 'cursors' | 'access'>,
  first: number,
  after: string | null | undefined,
): Promise<NewestFirstPage<DeletedNode>> {
  const start =
    after == null
      ? undefined
      : positionIn(ctx.cursors, after, LIST, isListKey, 'after is not a cursor of deletedNodes');
  const levels = ctx.access ? await ctx.access.levels() : undefined;
  const page = await readablePage(
    first,
    start,
    async (position, limit) => {
      const read = await readDeletedPage(ctx, limit, position);
      const entries = read.entries.map(({ entry, after: at }) => ({ value: entry, after: at }));
      return { entries, read: read.read, last: read.last, more: read.hasNextPage };
    },
    (entry) => !levels || levels([...entry.path, entry.nodeId]) !== null,
  );
  const shown = {
    ...page,
    entries: page.entries.map(({ value, after: at }) => ({ value: deletedNode(value), after: at })),
  };
  return withCursors(ctx.cursors, LIST, shown);
}

const rootOf = (entry: DeletedEntry): string => entry.path[0] ?? entry.nodeId;

/** What the list shows of an entry: the root as it was deleted, its subtree's size, when and by whom. */
const deletedNode = (entry: DeletedEntry): DeletedNode => ({
  node: { ...entry.node, depth: entry.path.length, rootId: rootOf(entry) },
  count: entry.count,
  deletedAt: entry.at,
  deletedBy: entry.by,
});
