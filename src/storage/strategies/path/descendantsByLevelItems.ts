import type { Item } from '../../../dynamodb/keys.js';
import { keyQuery } from '../../../dynamodb/keyQuery.js';
import { queryItems } from '../../../dynamodb/query.js';
import { decodeWindowCursor, windowEdge } from '../../cursor.js';
import type { StrategyContext } from '../../strategy.js';
import type { DepthWindow, Page, PageArgs, TreeNode } from '../../treeStore.js';
import { levelQuery } from './levelKeys.js';

/**
 * Descendants from level items: one exact Query per depth of the window, all in one parallel
 * wave (an empty depth ends the tree, so an open window is read in waves of LEVELS_PER_WAVE
 * depths); the items carry the page's nodes (no read by id). Within one depth, descendants
 * come in the order of their encoded paths.
 */
const LEVELS_PER_WAVE = 8;

interface Entry {
  depth: number;
  sk: string;
  item: Item;
}

export async function descendantsByLevelItems(
  ctx: StrategyContext,
  node: TreeNode,
  window: DepthWindow,
  page: PageArgs,
): Promise<Page> {
  const origin = node.path ? node : ((await ctx.getNodes([node.id])).get(node.id) ?? node);
  const path = origin.path ?? [];
  const after = page.after == null ? null : decodeCursor(ctx, page.after, origin, window);
  const deepest = Math.min(window.maxDepth ?? Number.POSITIVE_INFINITY, ctx.maxTreeDepth - path.length);
  const entries: Entry[] = [];
  if (window.minDepth === 0 && after === null) entries.push({ depth: 0, sk: '', item: { id: origin.id } });
  let depth = Math.max(1, window.minDepth, after?.depth ?? 0);
  let treeEnds = false;
  while (entries.length <= page.first && !treeEnds && depth <= deepest) {
    const wave = [];
    for (let d = depth; d <= Math.min(deepest, depth + LEVELS_PER_WAVE - 1); d++) wave.push(d);
    const results = await Promise.all(
      wave.map(async (d) => {
        const start = after && after.depth === d && after.sk ? after.sk : undefined;
        const query = keyQuery(ctx.table, levelQuery(path, origin.id, d, start));
        const { items } = await queryItems(ctx.doc, query, page.first + 1);
        return { d, items, fromStart: start === undefined };
      }),
    );
    for (const { d, items, fromStart } of results) {
      if (treeEnds) break;
      const inside = items.filter((item) => isBelow(item.path, path, origin.id));
      entries.push(...inside.map((item) => ({ depth: d, sk: String(item.sk), item })));
      // No node at this depth: none deeper either.
      if (fromStart && items.length === 0) treeEnds = true;
    }
    depth = (wave.at(-1) ?? depth) + 1;
  }
  const pageEntries = entries.slice(0, page.first);
  const nodes = await ctx.nodesOf(pageEntries.filter((e) => e.depth > 0).map((e) => e.item));
  return {
    edges: pageEntries.flatMap((entry) => {
      const found = entry.depth === 0 ? origin : nodes.get(String(entry.item.id));
      if (!found) return [];
      return [windowEdge(ctx.cursors, origin.id, window, { d: entry.depth, s: entry.sk }, found)];
    }),
    hasNextPage: entries.length > page.first,
  };
}

function decodeCursor(ctx: StrategyContext, raw: string, origin: TreeNode, window: DepthWindow) {
  const c = decodeWindowCursor(
    ctx.cursors,
    raw,
    origin.id,
    window,
    (p) => Number.isInteger(p.d) && (p.d as number) >= 0 && typeof p.s === 'string',
  );
  // The cursor of the node itself (depth 0) resumes at depth 1.
  return c.d === 0 ? { depth: 1, sk: '' } : { depth: c.d as number, sk: c.s as string };
}

/** The item's path runs through the origin (guards against an encoded-path collision). */
export function isBelow(itemPath: unknown, originPath: string[], originId: string): boolean {
  if (!Array.isArray(itemPath) || itemPath.length <= originPath.length) return false;
  return originPath.every((id, i) => itemPath[i] === id) && itemPath[originPath.length] === originId;
}
