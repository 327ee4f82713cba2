import { decodeWindowCursor, windowEdge } from '../../cursor.js';
import type { Place } from '../../strategy.js';
import type { DepthWindow, Page, PageArgs, TreeNode } from '../../treeStore.js';
import type { EngineContext } from '../core/engineContext.js';
import { childPlace } from '../core/projectionPlans.js';
import { readChildren } from '../core/reads.js';

/**
 * Descendants read from the truth (edge items, one wave of child Queries per level), in the
 * strategy's order and with its cursors (TreeStrategy.descendantSortKey). The engine answers
 * this way the descendants that an open move job touches (the origin is in the moving subtree,
 * or above its old or new place): the projection is then half rewritten, the truth never is.
 * A depth is read whole before it is sorted, so this costs more than the strategy's own read;
 * it lasts only as long as the job. Read backwards, the levels down to the cursor's are read.
 */
interface Entry {
  depth: number;
  sort: string;
  id: string;
}

interface Placed {
  id: string;
  place: Place;
  childCount: number;
}

export async function descendantsFromTruth(
  ctx: EngineContext,
  sortKey: (place: Place, id: string, depth: number) => string,
  origin: TreeNode & { path: string[] },
  window: DepthWindow,
  page: PageArgs,
): Promise<Page> {
  const cursor = page.after == null ? null : decodeAfter(ctx, page.after, origin.id, window);
  const inPage = (e: Entry) => cursor === null || (page.backwards ? follows(cursor, e) : follows(e, cursor));
  const entries: Entry[] = [];
  const self = { depth: 0, sort: '', id: origin.id };
  if (window.minDepth === 0 && inPage(self)) entries.push(self);
  // Read backwards, no level deeper than the cursor's holds a node of the page.
  const deepest = Math.min(
    window.maxDepth ?? ctx.maxTreeDepth + 1,
    page.backwards ? (cursor?.depth ?? Infinity) : Infinity,
  );
  const more = () => page.backwards || entries.length <= page.first;
  let level: Placed[] = [
    {
      id: origin.id,
      // Places for descendantSortKey, which no path key changes: none ('').
      place: { path: origin.path, lineage: origin.lineage ?? [], keys: origin.path.map(() => '') },
      childCount: origin.childCount,
    },
  ];
  for (let depth = 1; depth <= deepest && level.length > 0 && more(); depth++) {
    const parents = level.filter((p) => p.childCount > 0);
    const children = await Promise.all(
      parents.map(async (parent) =>
        (await readChildren(ctx, parent.id)).map(({ node }): Placed => ({
          id: node.id,
          place: childPlace(parent.place, parent.id, node.position, ''),
          childCount: node.childCount,
        })),
      ),
    );
    level = children.flat();
    if (depth < window.minDepth) continue;
    const found = level.map((p) => ({ depth, sort: sortKey(p.place, p.id, depth), id: p.id })).filter(inPage);
    entries.push(...found.sort((a, b) => (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0)));
  }
  if (page.backwards) entries.reverse();
  const pageEntries = entries.slice(0, page.first);
  const nodes = await ctx.getNodes(pageEntries.filter((e) => e.depth > 0).map((e) => e.id));
  return {
    edges: pageEntries.flatMap((entry) => {
      const node = entry.depth === 0 ? origin : nodes.get(entry.id);
      if (!node) return [];
      return [windowEdge(ctx.cursors, origin.id, window, { d: entry.depth, s: entry.sort }, node)];
    }),
    hasNextPage: entries.length > page.first,
  };
}

/** Whether `a` comes after `b` in the order of the strategy's read (by depth, then sort key). */
const follows = (a: Pick<Entry, 'depth' | 'sort'>, b: Pick<Entry, 'depth' | 'sort'>): boolean =>
  a.depth > b.depth || (a.depth === b.depth && a.sort > b.sort);

function decodeAfter(ctx: EngineContext, raw: string, originId: string, window: DepthWindow) {
  const c = decodeWindowCursor(
    ctx.cursors,
    raw,
    originId,
    window,
    (p) => Number.isInteger(p.d) && (p.d as number) >= 0 && typeof p.s === 'string',
  );
  return { depth: c.d as number, sort: c.s as string };
}
