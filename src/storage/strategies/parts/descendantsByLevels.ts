import { EDGE_SK_PREFIX } from '../../../dynamodb/keys.js';
import { decodeWindowCursor, windowEdge } from '../../cursor.js';
import { edgeSk } from '../../../dynamodb/keys.js';
import { walkLimit, type StrategyContext } from '../../strategy.js';
import { nodeWith, type DepthWindow, type Page, type PageArgs, type TreeNode } from '../../treeStore.js';
import { Level, type LevelEntry } from './levelWalk.js';

export type { LevelEntry };

/**
 * Breadth first, from the truth's edges: forwards, each depth read lazily, only as far as the
 * page needs (levelWalk.ts); backwards, one wave of child Queries per level down to the cursor's.
 *
 * Order: by relative depth, then by the path of edge sort keys from the origin, which is the
 * breadth-first order. The cursor holds that (depth, path) of the last node: a position, so a
 * later request resumes after it even if the tree changed meanwhile.
 */
type Entry = LevelEntry;

export async function descendantsByLevels(
  ctx: StrategyContext,
  origin: TreeNode,
  window: DepthWindow,
  page: PageArgs,
): Promise<Page & { related: TreeNode[] }> {
  const cursor = page.after == null ? null : decodeLevelsCursor(ctx, page.after, origin, window);
  const related: TreeNode[] = [];
  const out = page.backwards
    ? await backwards(ctx, origin, window, page, cursor, related)
    : await forwards(ctx, origin, window, page, cursor, related);
  return { ...levelsPage(ctx, origin, window, page, out), related };
}

type Position = { depth: number; path: string[]; parentsSeen?: boolean } | null;

/**
 * Forwards: depth by depth from the cursor's (the window's first), each depth read lazily
 * (levelWalk.ts) as far as the page needs, after the cursor at its own depth, from the first
 * node at the deeper ones; a depth with no node at all ends the subtree.
 */
async function forwards(
  ctx: StrategyContext,
  origin: TreeNode,
  window: DepthWindow,
  page: PageArgs,
  cursor: Position,
  related: TreeNode[],
): Promise<Entry[]> {
  const out: Entry[] = [];
  const wanted = page.first + 1;
  const read = (node: TreeNode) => related.push(node);
  let after = cursor?.path ?? null;
  // The depth above, when read whole from its first node: the next one's parents.
  let above: Entry[] | null = null;
  for (let depth = cursor?.depth ?? window.minDepth; ; depth++, after = null) {
    if (window.maxDepth !== null && depth > window.maxDepth) break;
    if (depth > walkLimit(ctx)) throw new Error('subtree deeper than the depth limit allows');
    const level: Level = new Level(ctx, origin, depth, above && after === null ? { parents: above } : { after }, read);
    const taken: Entry[] = await level.take(wanted - out.length);
    // Read from the depth's first node, what it saw is all there is; after the cursor, it adds
    // to what the cursor saw before it.
    const seen = markParentsSeen(taken, after === null ? false : cursor?.parentsSeen);
    out.push(...taken);
    if (out.length >= wanted || seen === false) break;
    above = after === null ? taken : null;
  }
  return out;
}

/**
 * Backwards: every level down to the cursor's (to the window's end without one), one wave of
 * child Queries per level, no Query for a node whose childCount is 0; the page is the nodes
 * nearest before the cursor.
 */
async function backwards(
  ctx: StrategyContext,
  origin: TreeNode,
  window: DepthWindow,
  page: PageArgs,
  cursor: Position,
  related: TreeNode[],
): Promise<Entry[]> {
  const inPage = inPageOf(cursor, page);
  const out: Entry[] = [];
  const inWindow = (depth: number) =>
    depth >= window.minDepth && (window.maxDepth === null || depth <= window.maxDepth);
  let level: Entry[] = [{ node: origin, depth: 0, path: [] }];
  for (let depth = 0; level.length > 0; depth++) {
    if (inWindow(depth)) out.push(...level.filter(inPage));
    if (window.maxDepth !== null && depth >= window.maxDepth) break;
    if (cursor !== null && depth >= cursor.depth) break;
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
  return out;
}

/**
 * Marks each entry, in breadth-first order, with whether a node of its depth up to it has
 * children, from what was seen before the first (`before`; undefined: not known, and then nothing
 * is known until one has children); a deeper depth starts from nothing seen. Answers what the
 * last one says.
 */
export function markParentsSeen(entries: LevelEntry[], before: boolean | undefined): boolean | undefined {
  let seen = before;
  let depth = entries[0]?.depth;
  for (const entry of entries) {
    if (entry.depth !== depth) [depth, seen] = [entry.depth, false];
    if (entry.node.childCount > 0) seen = true;
    entry.parentsSeen = seen;
  }
  return seen;
}

/** Whether an entry belongs to the page that starts after (or, backwards, ends before) `cursor`. */
const inPageOf =
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
    edges: inOrder.slice(0, page.first).map((entry) =>
      windowEdge(
        ctx.cursors,
        origin.id,
        window,
        {
          d: entry.depth,
          p: entry.path,
          ...(entry.parentsSeen === undefined ? {} : { k: entry.parentsSeen }),
        },
        placed(origin, entry),
      ),
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
  return nodeWith(node, { depth: origin.depth + depth, rootId: origin.rootId ?? origin.id });
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
function decodeLevelsCursor(ctx: StrategyContext, raw: string, origin: TreeNode, window: DepthWindow) {
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
  return {
    depth: c.d as number,
    path: c.p as string[],
    parentsSeen: typeof c.k === 'boolean' ? c.k : undefined,
  };
}
