import { edgeSk, type Item } from '../../../dynamodb/keys.js';
import { keyQuery } from '../../../dynamodb/keyQuery.js';
import { queryItems } from '../../../dynamodb/query.js';
import { decodePreorderCursor, idOfEdgeSk, windowEdge } from '../../cursor.js';
import type { Place, StrategyContext } from '../../strategy.js';
import type { DepthWindow, Page, PageArgs, TreeNode } from '../../treeStore.js';
import { documentKey, documentStep, keyOfChain, rangePk, subtreeRange } from './rangeKeys.js';

/**
 * A page of descendants in document order from range items (rangeKeys.ts), with the cursors of
 * the engine's walk of the truth (the chain of edge sort keys from the origin down, cursor.ts),
 * so that a client pages on across the two when a job opens or closes meanwhile.
 *
 * Below a node of depth 1 or more, the whole subtree is one key range of its branch's
 * collection: one Query per page, whatever the page spans. Below a root, its children come from
 * its edges (one Query), each followed by the range of its branch: one Query more per child
 * that has children. A window with a depth bound, or that starts below the children, is left to
 * the walk (null): a range holds every depth, and would be read through to skip them. So is a
 * page read backwards.
 */
interface Found {
  node: TreeNode;
  chain: string[];
}

export async function preorderByRange(
  ctx: StrategyContext,
  node: TreeNode,
  window: DepthWindow,
  page: PageArgs,
): Promise<Page | null> {
  if (page.backwards || window.maxDepth !== null || window.minDepth > 1) return null;
  const origin = node.path && node.lineage ? node : (await ctx.getNodes([node.id])).get(node.id);
  if (!origin?.path || !origin.lineage) return null;
  const place: Place = { path: origin.path, lineage: origin.lineage };
  const after =
    page.after == null ? null : decodePreorderCursor(ctx.cursors, ctx.maxTreeDepth, page.after, origin.id, window);
  const read = new RangeRead(ctx, page.first + 1, origin.path.length);
  if (after === null && window.minDepth === 0) read.found.push({ node: origin, chain: [] });
  const key = documentKey(origin.id, place);
  if (key === null) await read.belowRoot(origin, after);
  else await read.range(rangePk(place.path[1] ?? origin.id), key, after === null ? key : keyOfChain(key, after));
  return {
    edges: read.found
      .slice(0, page.first)
      .map(({ node: found, chain }) => windowEdge(ctx.cursors, origin.id, window, { x: 'pre', c: chain }, found)),
    hasNextPage: read.found.length > page.first,
  };
}

class RangeRead {
  readonly found: Found[] = [];

  constructor(
    private readonly ctx: StrategyContext,
    private readonly want: number,
    private readonly originDepth: number,
  ) {}

  private get room(): number {
    return this.want - this.found.length;
  }

  /** The subtree of the node whose document key is `key`, in its branch `pk`, after key `start`. */
  async range(pk: string, key: string, start: string): Promise<void> {
    if (this.room <= 0) return;
    const query = keyQuery(this.ctx.table, { pk, sk: { between: subtreeRange(key) }, after: start });
    const { items } = await queryItems(this.ctx.doc, query, this.room);
    const nodes = await this.ctx.nodesOf(items);
    for (const item of items) {
      const found = nodes.get(String(item.id));
      if (found) this.found.push({ node: found, chain: this.chainOf(item) });
    }
  }

  /** Below a root: its children after the cursor's, each with its branch's range. */
  async belowRoot(root: TreeNode, after: string[] | null): Promise<void> {
    let edgeAfter: string | undefined;
    if (after !== null && after.length > 0) {
      // Resume inside the branch the cursor is in, below and after the node it names.
      const branch = after[0]!;
      const branchKey = keyOfChain('', [branch]);
      await this.range(rangePk(idOfEdgeSk(branch)), branchKey, keyOfChain('', after));
      edgeAfter = branch;
    }
    while (this.room > 0) {
      const { items, lastKey } = await this.ctx.queryChildren(root.id, { after: edgeAfter, limit: this.room });
      for (const item of items) {
        const child = this.ctx.nodeFromItem(item);
        const placed = Object.assign({}, child, { depth: 1, rootId: root.id });
        this.found.push({ node: placed, chain: [String(item.sk)] });
        if (child.childCount > 0) {
          const branchKey = documentStep(child.position, child.id);
          await this.range(rangePk(child.id), branchKey, branchKey);
        }
        if (this.room <= 0) return;
      }
      if (lastKey === undefined || items.length === 0) return;
      edgeAfter = String(items[items.length - 1]!.sk);
    }
  }

  /** The edge sort keys from the origin down to the item's node, from the place it keeps. */
  private chainOf(item: Item): string[] {
    const ids = [...(item.path as string[]), String(item.id)];
    const lineage = item.lineage as string[];
    const chain: string[] = [];
    for (let depth = this.originDepth + 1; depth < ids.length; depth++)
      chain.push(edgeSk(lineage[depth]!, ids[depth]!));
    return chain;
  }
}
