import { sortKeyOf } from '../../../dynamodb/keys.js';
import { decodePreorderCursor, idOfEdgeSk, windowEdge } from '../../cursor.js';
import { nodeWith, type DepthWindow, type Page, type PageArgs, type TreeNode } from '../../treeStore.js';
import { MAX_PAGE_SIZE } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';

/**
 * One page of descendants in document order (PREORDER: a node, then its first child's whole
 * subtree, then its next child's, siblings in sibling order), under every strategy, read from
 * the truth: the edge items of the parents the page goes through, one Query per parent that has
 * children (none for a leaf, whose childCount is 0). While the page is walked, the children of
 * the nodes it will reach are asked for ahead, in one wave per level, as far as their children
 * counts show the page needs them, so a page costs about one wave per level it spans.
 *
 * Edge items are the truth, rewritten in the transaction of every write and never left for a job
 * to finish: this answer needs no projection, is the same while a move job runs, and never
 * enters a subtree being deleted (its root left its parent's edges when the delete began).
 *
 * The cursor names the chain of edge sort keys from the origin down to the page's last node
 * (`c`), so the next page resumes below it, then after it among its siblings, then after each
 * ancestor in turn; like every cursor, a position, not a snapshot. Read backwards (walkBackwards),
 * one Query per parent the page goes through too.
 */
export async function preorderPage(
  ctx: EngineContext,
  origin: TreeNode,
  window: DepthWindow,
  page: PageArgs,
): Promise<Page> {
  const after =
    page.after == null ? null : decodePreorderCursor(ctx.cursors, ctx.maxTreeDepth, page.after, origin.id, window);
  const deepest = Math.min(window.maxDepth ?? ctx.maxTreeDepth, ctx.maxTreeDepth);
  const walk = new Walk(ctx, window.minDepth, deepest, page.first + 1);
  if (page.backwards) await walkBackwards(ctx, walk, origin, after);
  else if (after === null) {
    if (window.minDepth === 0) walk.emit(origin, []);
    if (deepest > 0 && origin.childCount > 0) await walk.children(origin.id, [], undefined);
  } else {
    const ids = [origin.id, ...after.map(idOfEdgeSk)];
    // Below the page's last node, then after it and after each of its ancestors in turn.
    if (after.length < deepest) await walk.children(ids[after.length]!, after, undefined);
    for (let level = after.length; level >= 1 && !walk.full(); level--) {
      await walk.children(ids[level - 1]!, after.slice(0, level - 1), after[level - 1]);
    }
  }
  const placed = (node: TreeNode, depth: number): TreeNode =>
    node === origin || origin.depth === undefined
      ? node
      : nodeWith(node, { depth: origin.depth + depth, rootId: origin.rootId ?? origin.id });
  return {
    edges: walk.found
      .slice(0, page.first)
      .map(({ node, chain }) =>
        windowEdge(ctx.cursors, origin.id, window, { x: 'pre', c: chain }, placed(node, chain.length)),
      ),
    hasNextPage: walk.found.length > page.first,
  };
}

/**
 * Document order backwards. From the end: the origin's subtree backwards, then the origin. Before
 * the cursor's node: its earlier siblings' subtrees backwards, then its parent, and so on up to
 * the origin. A subtree backwards is its root's children from the last, each after its own
 * subtree. The ancestors the page reaches are read by id, in one wave, once it reaches one.
 */
async function walkBackwards(ctx: EngineContext, walk: Walk, origin: TreeNode, after: string[] | null): Promise<void> {
  if (after === null) {
    if (walk.deepest > 0 && origin.childCount > 0) await walk.childrenBackwards(origin.id, [], undefined);
    if (!walk.full()) walk.emit(origin, []);
    return;
  }
  const ids = [origin.id, ...after.map(idOfEdgeSk)];
  let ancestors: Promise<Map<string, TreeNode>> | undefined;
  for (let level = after.length; level >= 1 && !walk.full(); level--) {
    const chain = after.slice(0, level - 1);
    await walk.childrenBackwards(ids[level - 1]!, chain, after[level - 1]);
    if (walk.full() || level === 1) {
      if (level === 1 && !walk.full()) walk.emit(origin, []);
      return;
    }
    const parent = (await (ancestors ??= ctx.getNodes(ids.slice(1, -1)))).get(ids[level - 1]!);
    // An ancestor no longer there (deleted, or moved elsewhere) is not in the page.
    if (parent && parent.parentId === ids[level - 2]) walk.emit(parent, chain);
  }
}

interface Child {
  node: TreeNode;
  sk: string;
}

/** A batch of one parent's children (after some edge), and whether more follow. */
interface Batch {
  children: Child[];
  more: boolean;
}

/** The depth-first walk of one page: what it found so far, and the children it asked for ahead. */
class Walk {
  readonly found: Array<{ node: TreeNode; chain: string[] }> = [];
  private readonly ahead = new Map<string, Promise<Batch>>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly minDepth: number,
    readonly deepest: number,
    private readonly want: number,
  ) {}

  full(): boolean {
    return this.found.length >= this.want;
  }

  emit(node: TreeNode, chain: string[]): void {
    if (chain.length >= this.minDepth) this.found.push({ node, chain });
  }

  /**
   * The children of `parentId` (at chain `chain`) after edge `afterSk`, each with its subtree,
   * until the page is full.
   */
  async children(parentId: string, chain: string[], afterSk: string | undefined): Promise<void> {
    const depth = chain.length + 1;
    for (let start = afterSk; !this.full();) {
      const batch = await this.batch(parentId, start);
      this.readAhead(batch.children, depth);
      for (const { node, sk } of batch.children) {
        const below = [...chain, sk];
        this.emit(node, below);
        if (this.full()) return;
        if (depth < this.deepest && node.childCount > 0) await this.children(node.id, below, undefined);
        if (this.full()) return;
      }
      if (!batch.more || batch.children.length === 0) return;
      start = batch.children[batch.children.length - 1]!.sk;
    }
  }

  /** The children of `parentId` (at chain `chain`) before edge `beforeSk`, from the last, each after its subtree. */
  async childrenBackwards(parentId: string, chain: string[], beforeSk: string | undefined): Promise<void> {
    const depth = chain.length + 1;
    for (let start = beforeSk; !this.full();) {
      const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, this.want - this.found.length));
      const { items, lastKey } = await this.ctx.queryChildren(parentId, { after: start, limit, backwards: true });
      for (const item of items) {
        const node = this.ctx.nodeFromItem(item);
        const below = [...chain, sortKeyOf(item)];
        if (depth < this.deepest && node.childCount > 0) await this.childrenBackwards(node.id, below, undefined);
        if (this.full()) return;
        this.emit(node, below);
        if (this.full()) return;
      }
      if (lastKey === undefined || items.length === 0) return;
      start = sortKeyOf(items[items.length - 1]!);
    }
  }

  /**
   * Asks ahead for the children of the first nodes of `children` (at `depth`) that the page will
   * go through: while the nodes before them, and their children, do not fill it.
   */
  private readAhead(children: Child[], depth: number): void {
    if (depth >= this.deepest) return;
    let reached = this.found.length;
    for (const { node } of children) {
      if (reached >= this.want) return;
      if (depth >= this.minDepth) reached += 1;
      if (node.childCount > 0) {
        void this.batch(node.id, undefined).catch(() => {});
        reached += depth + 1 >= this.minDepth ? node.childCount : 0;
      }
    }
  }

  /** One Query of a parent's children after an edge (asked once per page), as many as the page may need. */
  private batch(parentId: string, afterSk: string | undefined): Promise<Batch> {
    const key = `${parentId}\u0000${afterSk ?? ''}`;
    let batch = this.ahead.get(key);
    if (!batch) {
      const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, this.want - this.found.length));
      batch = this.ctx.queryChildren(parentId, { after: afterSk, limit }).then(({ items, lastKey }) => ({
        children: items.map((item) => ({ node: this.ctx.nodeFromItem(item), sk: sortKeyOf(item) })),
        more: lastKey !== undefined,
      }));
      this.ahead.set(key, batch);
    }
    return batch;
  }
}
