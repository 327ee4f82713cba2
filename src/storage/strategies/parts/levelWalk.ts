import { sortKeyOf } from '../../../dynamodb/keys.js';
import { idOfEdgeSk } from '../../cursor.js';
import type { StrategyContext } from '../../strategy.js';
import type { TreeNode } from '../../treeStore.js';

/** A node of a depth window, with its place below the origin. */
export interface LevelEntry {
  node: TreeNode;
  /** Below the origin. */
  depth: number;
  /** The edge sort keys from the origin down to the node. */
  path: string[];
  /**
   * Whether a node of this depth up to this one has children (so the next depth has nodes),
   * when the read knows it: what its cursor carries, so that the page that ends the depth knows
   * whether to go on without reading the whole depth again.
   */
  parentsSeen?: boolean;
}

/** The most children of one parent a depth read for its parents reads in one Query. */
const UPPER_SLICE = 1000;

/** A parent whose children are still to be read, after `after` (an edge sort key) when given. */
interface OpenParent {
  id: string;
  /** The edge sort keys from the origin down to it. */
  path: string[];
  after?: string;
  /** Its children not read yet, when known (its childCount). */
  left: number | undefined;
}

const opened = (entry: LevelEntry): OpenParent => ({
  id: entry.node.id,
  path: entry.path,
  left: entry.node.childCount,
});

/**
 * The nodes at one depth below an origin, in breadth-first order (by parent, then sibling
 * order), from the first or after a position (a cursor's chain of edge sort keys), read only as
 * far as they are taken: the children of as many parents as the childCounts say a `take` needs,
 * one wave of child Queries at a time, the last parent's cut at what is still wanted; the
 * parents themselves come the same way from the depth above. So a page costs one Query per
 * parent whose children it returns, and the few Queries that find those parents, whatever the
 * size of the rest of the subtree.
 */
export class Level {
  private readonly queue: LevelEntry[] = [];
  private readonly open: OpenParent[] = [];
  private readonly upper: Level | null;

  /**
   * @param start where the depth starts: `after` the chain of edge sort keys from the origin to
   *   the node to resume after (its length is `depth`), or null for the depth's first node; or
   *   the whole depth above (`parents`), read from its first node: then nothing above is read.
   */
  constructor(
    private readonly ctx: StrategyContext,
    private readonly origin: TreeNode,
    readonly depth: number,
    start: { after: string[] | null } | { parents: readonly LevelEntry[] },
    private readonly read: (node: TreeNode) => void,
    /** Whether this depth is read for the parents of the next one, not for a page. */
    private readonly feeds = false,
  ) {
    if ('parents' in start) {
      this.upper = null;
      for (const entry of start.parents) if (entry.node.childCount > 0) this.open.push(opened(entry));
      return;
    }
    const { after } = start;
    if (depth === 0) {
      this.upper = null;
      if (after === null) this.queue.push({ node: origin, depth: 0, path: [] });
      return;
    }
    this.upper = new Level(ctx, origin, depth - 1, { after: after && after.slice(0, -1) }, read, true);
    if (after !== null) {
      // The rest of the children of the node's parent, then the parents after it.
      const parentPath = after.slice(0, -1);
      const parentId = parentPath.length === 0 ? origin.id : idOfEdgeSk(parentPath.at(-1)!);
      this.open.push({ id: parentId, path: parentPath, after: after.at(-1)!, left: undefined });
    }
  }

  /** Up to `n` more nodes of this depth (fewer when the depth ends). */
  async take(n: number): Promise<LevelEntry[]> {
    while (this.queue.length < n) {
      if (this.open.length === 0 && !(await this.moreParents(n - this.queue.length))) break;
      await this.readChildren(n - this.queue.length);
    }
    return this.queue.splice(0, n);
  }

  /** Takes parents from the depth above until their childCounts cover `want` (false: none left). */
  private async moreParents(want: number): Promise<boolean> {
    if (!this.upper) return false;
    let covered = 0;
    let pulled = 0;
    let children = 0;
    while (covered < want) {
      // As many parents as the mean childCount seen (the origin's at first) says `want` needs.
      const mean = (children + this.origin.childCount) / (pulled + 1);
      const parents = await this.upper.take(Math.max(1, Math.ceil((want - covered) / Math.max(1, mean))));
      if (parents.length === 0) break;
      for (const entry of parents) {
        pulled++;
        children += entry.node.childCount;
        if (entry.node.childCount === 0) continue;
        this.open.push(opened(entry));
        covered += entry.node.childCount;
      }
    }
    return this.open.length > 0;
  }

  /**
   * One wave: the children of the open parents that `want` reaches, the last one's cut at what
   * is still wanted (a parent resumed after a key, whose count is unknown, alone).
   */
  private async readChildren(want: number): Promise<void> {
    const wave: OpenParent[] = [];
    let left = want;
    while (this.open.length > 0 && left > 0) {
      const next = this.open[0]!;
      if (next.left === undefined && wave.length > 0) break;
      wave.push(this.open.shift()!);
      left -= next.left ?? left;
    }
    const reads = await Promise.all(
      wave.map((parent, i) =>
        this.ctx.queryChildren(parent.id, {
          after: parent.after,
          // Every parent but the last is read whole: its childCount is below what is wanted. A
          // depth read for its parents reads the last one by big slices: taken a few at a time,
          // it would be read again for each.
          ...(i === wave.length - 1
            ? { limit: Math.max(this.feeds ? UPPER_SLICE : 1, want - this.counted(wave, i)) }
            : {}),
        }),
      ),
    );
    reads.forEach(({ items, lastKey }, i) => {
      const parent = wave[i]!;
      for (const item of items) {
        const node = this.ctx.nodeFromItem(item);
        this.read(node);
        this.queue.push({ node, depth: this.depth, path: [...parent.path, sortKeyOf(item)] });
      }
      // Cut short: the rest of its children come before any other parent's.
      if (lastKey !== undefined && items.length > 0) {
        this.open.unshift({ ...parent, after: sortKeyOf(items.at(-1)!), left: undefined });
      }
    });
  }

  /** The children counted for the parents of `wave` before the i-th. */
  private counted(wave: OpenParent[], i: number): number {
    return wave.slice(0, i).reduce((sum, parent) => sum + (parent.left ?? 0), 0);
  }
}
