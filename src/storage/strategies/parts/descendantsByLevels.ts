import { EDGE_SK_PREFIX } from '../../../dynamodb/keys.js';
import { decodeWindowCursor, windowEdge } from '../../cursor.js';
import { edgeSk } from '../../../dynamodb/keys.js';
import { walkLimit, type StrategyContext } from '../../strategy.js';
import type { DepthWindow, Page, PageArgs, TreeNode } from '../../treeStore.js';

/**
 * Breadth first: one wave of child Queries per level (in parallel), no Query for a node whose
 * childCount is 0, and no level read past the one that fills the page.
 *
 * Order: by relative depth, then by the path of edge sort keys from the origin, which is the
 * breadth-first order. The cursor holds that (depth, path) of the last node: a position, so a
 * later request resumes after it even if the tree changed meanwhile. Read backwards, the levels
 * are read down to the cursor's (to the window's end without one), and the page is the nodes
 * nearest before it.
 */
export interface LevelEntry {
  node: TreeNode;
  /** Below the origin. */
  depth: number;
  /** The edge sort keys from the origin down to the node. */
  path: string[];
}
type Entry = LevelEntry;

export async function descendantsByLevels(
  ctx: StrategyContext,
  origin: TreeNode,
  window: DepthWindow,
  page: PageArgs,
): Promise<Page & { related: TreeNode[] }> {
  const cursor = page.after == null ? null : decodeLevelsCursor(ctx, page.after, origin, window);
  const inPage = inPageOf(cursor, page);
  const out: Entry[] = [];
  const related: TreeNode[] = [];
  const inWindow = (depth: number) =>
    depth >= window.minDepth && (window.maxDepth === null || depth <= window.maxDepth);
  let level: Entry[] = [{ node: origin, depth: 0, path: [] }];
  for (let depth = 0; level.length > 0; depth++) {
    if (inWindow(depth)) {
      out.push(...level.filter(inPage));
      if (!page.backwards && out.length > page.first) break;
    }
    if (window.maxDepth !== null && depth >= window.maxDepth) break;
    if (page.backwards && cursor !== null && depth >= cursor.depth) break;
    if (depth > walkLimit(ctx)) throw new Error('subtree deeper than the depth limit allows');
    const parents = level.filter((entry) => entry.node.childCount > 0);
    const children = await Promise.all(parents.map((entry) => ctx.readChildren(entry.node.id)));
    level = parents.flatMap((parent, i) =>
      (children[i] ?? []).map(({ node }) => ({
        node,
        depth: depth + 1,
        path: [...parent.path, edgeSk(node.position, node.id)],
      })),
    );
    related.push(...level.map((entry) => entry.node));
  }
  return { ...levelsPage(ctx, origin, window, page, out), related };
}

/** Whether an entry belongs to the page that starts after (or, backwards, ends before) `cursor`. */
export const inPageOf =
  (cursor: { depth: number; path: string[] } | null, page: PageArgs) =>
  (entry: LevelEntry): boolean =>
    cursor === null || (page.backwards ? follows(cursor, entry) : follows(entry, cursor));

/**
 * The page of `found`: the entries of the window in breadth-first order that follow the cursor
 * (precede it, backwards), at least `page.first + 1` of them unless the window ends first.
 */
export function levelsPage(
  ctx: StrategyContext,
  origin: TreeNode,
  window: DepthWindow,
  page: PageArgs,
  found: LevelEntry[],
): Page {
  const inOrder = page.backwards ? [...found].reverse() : found;
  return {
    edges: inOrder
      .slice(0, page.first)
      .map((entry) =>
        windowEdge(ctx.cursors, origin.id, window, { d: entry.depth, p: entry.path }, placed(origin, entry)),
      ),
    hasNextPage: inOrder.length > page.first,
  };
}

/**
 * The node with its depth and root, when the origin knows its own (a strategy that keeps
 * paths): the edge copies a level is read from do not carry them.
 */
function placed(origin: TreeNode, { node, depth }: Entry): TreeNode {
  if (depth === 0 || origin.depth === undefined) return node;
  return Object.assign({}, node, { depth: origin.depth + depth, rootId: origin.rootId ?? origin.id });
}

/** Whether `a` comes after `b` in breadth-first order. */
export function follows(a: { depth: number; path: string[] }, b: { depth: number; path: string[] }): boolean {
  if (a.depth !== b.depth) return a.depth > b.depth;
  for (let i = 0; i < a.path.length; i++) {
    const x = a.path[i]!;
    const y = b.path[i]!;
    if (x !== y) return x > y;
  }
  return false;
}

/** The (depth, path) position a cursor of this order names; BAD_USER_INPUT for any other cursor. */
export function decodeLevelsCursor(ctx: StrategyContext, raw: string, origin: TreeNode, window: DepthWindow) {
  const c = decodeWindowCursor(
    ctx.cursors,
    raw,
    origin.id,
    window,
    (p) =>
      Number.isInteger(p.d) &&
      Array.isArray(p.p) &&
      p.p.length === p.d &&
      p.p.every((s) => typeof s === 'string' && s.startsWith(EDGE_SK_PREFIX)),
  );
  return { depth: c.d as number, path: c.p as string[] };
}
