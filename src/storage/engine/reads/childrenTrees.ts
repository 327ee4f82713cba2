import { childEdge } from '../../cursor.js';
import type { ChildrenPages, ChildrenTreeRequest, Page, TreeNode } from '../../treeStore.js';
import { checkPage } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { collectionPk, edgeSk } from '../core/items.js';
import { projectionSettled, type OpenJobs } from '../core/openJobs.js';
import { leaving } from './visibleNodes.js';

/**
 * The most items one bulk read of children may read (per request): past it, children are read
 * per parent. Fan-out 10 to depth 3 is 1,110.
 */
export const LOOKAHEAD_ITEMS = 2000;

/**
 * Children pages several levels deep, from the strategy's bulk read (TreeStrategy.subtreeItems)
 * of the items that carry copies of the nodes: grouped by parent, in sibling order (the order
 * of their edge items' sort keys), each page cut at its `first`, with the cursors and
 * hasNextPage a per-parent read gives. Nothing (the pages are then read per parent) without a
 * bulk read, while an open job makes the projection unsafe to answer from, or when the first
 * level alone holds more than LOOKAHEAD_ITEMS.
 */
export async function childrenTree(
  ctx: EngineContext,
  open: OpenJobs,
  request: ChildrenTreeRequest,
): Promise<ChildrenPages> {
  const { parent, levels } = request;
  for (const firsts of levels) for (const first of firsts) checkPage({ first });
  const pages: ChildrenPages = new Map();
  if (
    !ctx.strategy.subtreeItems ||
    !projectionSettled(open, ctx.strategy.name) ||
    levels.length === 0 ||
    parent.childCount > LOOKAHEAD_ITEMS
  )
    return pages;
  const reader = leaving(ctx, request.leftOut);
  const bulk = await ctx.strategy.subtreeItems(reader, parent, levels.length, LOOKAHEAD_ITEMS);
  if (!bulk) return pages;
  const nodes = await reader.nodesOf(bulk.items);
  // Sibling order is the order of the edge items' sort keys, each computed once (and named by
  // the pages' cursors).
  const childrenOf = new Map<string, Sibling[]>();
  for (const node of nodes.values()) {
    if (node.parentId === null) continue;
    const sibling = { node, sk: edgeSk(node.position, node.id) };
    const siblings = childrenOf.get(node.parentId);
    if (siblings) siblings.push(sibling);
    else childrenOf.set(node.parentId, [sibling]);
  }
  for (const siblings of childrenOf.values()) siblings.sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : 0));

  let level: TreeNode[] = [parent];
  for (const firsts of levels.slice(0, bulk.depth)) {
    const widest = Math.max(...firsts);
    const next: TreeNode[] = [];
    for (const node of level) {
      const children = childrenOf.get(node.id) ?? [];
      pages.set(node.id, new Map(firsts.map((first) => [first, pageOf(ctx, node.id, children, first)])));
      for (let i = 0; i < children.length && i < widest; i++) next.push(children[i]!.node);
    }
    level = next;
  }
  return pages;
}

/** A node of a bulk read and the sort key of its edge item. */
interface Sibling {
  node: TreeNode;
  sk: string;
}

/** The first `first` of a parent's children (all of them, in sibling order) as a page. */
function pageOf(ctx: EngineContext, parentId: string, children: Sibling[], first: number): Page {
  const pk = collectionPk(parentId);
  return {
    edges: children.slice(0, first).map(({ node, sk }) => childEdge(ctx.cursors, pk, sk, node)),
    hasNextPage: children.length > first,
  };
}
