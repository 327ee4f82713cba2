import { sortKeyOf, type Item } from '../../../dynamodb/keys.js';
import { keyQuery, withProjection } from '../../../dynamodb/keyQuery.js';
import { queryItems } from '../../../dynamodb/query.js';
import { decodeWindowCursor, windowEdge } from '../../cursor.js';
import type { StrategyContext } from '../../strategy.js';
import type { DepthWindow, Page, PageArgs, TreeNode } from '../../treeStore.js';
import { levelQuery } from './levelKeys.js';

/**
 * Descendants from level items: one exact Query per depth the page spans, each asking for what
 * the page still needs, two depths in a wave where the first one's size is known; the items
 * carry the page's nodes (no read by id). Within one depth, descendants come in the order of
 * their encoded paths. Backwards, the same Queries in descending key order, from the cursor's
 * depth up, in waves of LEVELS_PER_WAVE depths (an empty depth ends the tree).
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
  const levels = new Levels(ctx, origin, window, page);
  const entries = page.backwards ? await levels.backwards() : await levels.forwards();
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

/** The level Queries of one page, and the entries they found, in the order of the page. */
class Levels {
  private readonly path: string[];
  private readonly cursor: { depth: number; sk: string } | null;
  /** The deepest depth of the window that the tree's depth limit allows. */
  private readonly deepest: number;
  private readonly self: Entry;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly origin: TreeNode,
    private readonly window: DepthWindow,
    private readonly page: PageArgs,
  ) {
    this.path = origin.path ?? [];
    this.cursor = page.after == null ? null : decodeCursor(ctx, page.after, origin, window);
    this.deepest = Math.min(window.maxDepth ?? Number.POSITIVE_INFINITY, ctx.maxTreeDepth - this.path.length);
    this.self = { depth: 0, sk: '', item: { id: origin.id } };
  }

  /**
   * Depth by depth from the cursor's (the window's first), each Query asking for what the page
   * still needs, so that a page reads about the nodes it returns. A depth read whole from its
   * first node tells the size of the next (the sum of its nodes' childCounts, which the items
   * carry): while it is known and short of the page, the next depth is read in the same wave,
   * asking for the rest; an empty depth ends the tree.
   */
  async forwards(): Promise<Entry[]> {
    const { cursor, window, page } = this;
    const wanted = page.first + 1;
    const entries: Entry[] = window.minDepth === 0 && cursor === null ? [this.self] : [];
    let depth = Math.max(1, window.minDepth, cursor?.depth ?? 0);
    // The size of `depth`, when known: the origin's childCount for the first depth, read from its start.
    let size = depth === 1 && !cursor ? this.origin.childCount : undefined;
    while (entries.length < wanted && depth <= this.deepest && size !== 0) {
      const left = wanted - entries.length;
      const both = size !== undefined && size < left && depth < this.deepest;
      const wave = both ? [this.level(depth, left), this.level(depth + 1, left - size!)] : [this.level(depth, left)];
      let levels = await Promise.all(wave);
      // A childCount that a concurrent write made stale: the next depth was asked for too little.
      if (both && (levels[0]!.cut || levels[0]!.entries.length !== size)) levels = [levels[0]!];
      for (const level of levels) entries.push(...level.entries);
      const last = levels.at(-1)!;
      if (levels.some((level) => level.empty)) break;
      // The next depth's size, when the last one read was read whole from its first node.
      const whole = !last.cut && !(cursor && cursor.depth === last.depth);
      size = whole ? last.entries.reduce((sum, e) => sum + Number(e.item.childCount ?? 0), 0) : undefined;
      depth = last.depth + 1;
    }
    return entries.slice(0, wanted);
  }

  /**
   * Depth by depth up from the cursor's (from the window's last: found first when it has no
   * bound, reading down in waves until a depth is empty), each in descending key order.
   */
  async backwards(): Promise<Entry[]> {
    const { cursor, window, page } = this;
    const first = Math.max(1, window.minDepth);
    const levels: Level[] = [];
    if (cursor === null && window.maxDepth === null) {
      for (let depth = first; depth <= this.deepest && !levels.some((l) => l.empty); depth += LEVELS_PER_WAVE) {
        const wave = depths(depth, Math.min(this.deepest, depth + LEVELS_PER_WAVE - 1));
        levels.push(...(await Promise.all(wave.map((d) => this.level(d)))));
      }
    } else if (cursor === null || cursor.depth > 0) {
      const count = () => levels.reduce((n, level) => n + level.entries.length, 0);
      for (
        let depth = Math.min(cursor?.depth ?? this.deepest, this.deepest);
        depth >= first && count() <= page.first;
      ) {
        const wave = depths(Math.max(first, depth - LEVELS_PER_WAVE + 1), depth);
        levels.push(...(await Promise.all(wave.map((d) => this.level(d)))));
        depth -= LEVELS_PER_WAVE;
      }
    }
    const entries = levels.sort((a, b) => b.depth - a.depth).flatMap((level) => level.entries);
    if (window.minDepth === 0 && (cursor === null || cursor.depth > 0)) entries.push(this.self);
    return entries;
  }

  /**
   * One depth's items below the origin, from (after, or backwards before) the cursor when it is
   * at that depth, at most `limit` (the page's and one more by default).
   */
  private async level(depth: number, limit = this.page.first + 1): Promise<Level> {
    const { cursor, page, origin } = this;
    const start = cursor && cursor.depth === depth && cursor.sk ? cursor.sk : undefined;
    const query = { ...levelQuery(this.path, origin.id, depth, start), backwards: page.backwards };
    const read = withProjection(keyQuery(this.ctx.table, query), this.ctx.reading, ['sk']);
    const { items, lastKey } = await queryItems(this.ctx.doc, read, limit);
    const inside = items.filter((item) => isBelow(item.path, this.path, origin.id));
    return {
      depth,
      entries: inside.map((item) => ({ depth, sk: sortKeyOf(item), item })),
      empty: start === undefined && items.length === 0,
      cut: lastKey !== undefined,
    };
  }
}

interface Level {
  depth: number;
  entries: Entry[];
  /** Read from its start and found empty: the tree ends above it. */
  empty: boolean;
  /** Stopped at its limit: the depth may hold more. */
  cut: boolean;
}

const depths = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function decodeCursor(ctx: StrategyContext, raw: string, origin: TreeNode, window: DepthWindow) {
  const c = decodeWindowCursor(
    ctx.cursors,
    raw,
    origin.id,
    window,
    (p) => Number.isInteger(p.d) && (p.d as number) >= 0 && typeof p.s === 'string',
  );
  return { depth: c.d as number, sk: c.s as string };
}

/** The item's path runs through the origin (guards against an encoded-path collision). */
export function isBelow(itemPath: unknown, originPath: string[], originId: string): boolean {
  if (!Array.isArray(itemPath) || itemPath.length <= originPath.length) return false;
  return originPath.every((id, i) => itemPath[i] === id) && itemPath[originPath.length] === originId;
}
