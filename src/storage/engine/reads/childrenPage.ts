import { childEdge, decodeChildCursor } from '../../cursor.js';
import type { LeftOut, Page, PageArgs } from '../../treeStore.js';
import { checkPage } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { collectionPk, edgeSk } from '../core/items.js';
import { queryChildren } from '../core/reads.js';
import { leaving } from './visibleNodes.js';

/**
 * A page of a parent's children (or of the roots): one strongly consistent Query of the edge
 * items, already in sibling order (in reverse, read backwards). It asks for one item more than
 * the page, so hasNextPage is exact. The cursor names the edge's sort key, so it keeps its
 * place whatever changes, and serves both ways.
 */
export async function childrenPage(
  engine: EngineContext,
  parentId: string | null,
  page: PageArgs,
  leftOut?: LeftOut,
): Promise<Page> {
  checkPage(page);
  const ctx = leaving(engine, leftOut);
  const pk = collectionPk(parentId);
  const startSk = afterSk(ctx, pk, page.after);
  const { items } = await queryChildren(ctx, parentId, {
    after: startSk,
    limit: page.first + 1,
    backwards: page.backwards,
    reading: ctx.reading,
  });
  return {
    edges: items.slice(0, page.first).map((item) => childEdge(ctx.cursors, pk, item.sk, ctx.nodeFromItem(item))),
    hasNextPage: items.length > page.first,
  };
}

/** The edge sort key a children cursor of collection `pk` names (BAD_USER_INPUT for any other). */
function afterSk(ctx: EngineContext, pk: string, after: string | null | undefined): string | undefined {
  if (after == null) return undefined;
  return decodeChildCursor(ctx.cursors, pk, after);
}

/**
 * A page of the roots among `ids` (those that exist and are roots), in sibling order, with the
 * cursors of the roots list: read by id (one BatchGet wave), never by reading the table's roots,
 * so nothing of the others shows, not even their number.
 */
export async function rootsAmong(ctx: EngineContext, ids: readonly string[], page: PageArgs): Promise<Page> {
  checkPage(page);
  const pk = collectionPk(null);
  const startSk = afterSk(ctx, pk, page.after);
  const order = page.backwards ? -1 : 1;
  const roots = [...(await ctx.getNodes(ids)).values()]
    .filter((node) => node.parentId === null)
    .map((node) => ({ node, sk: edgeSk(node.position, node.id) }))
    .filter(({ sk }) => startSk === undefined || (page.backwards ? sk < startSk : sk > startSk))
    .sort((a, b) => (a.sk < b.sk ? -order : a.sk > b.sk ? order : 0));
  return {
    edges: roots.slice(0, page.first).map(({ node, sk }) => childEdge(ctx.cursors, pk, sk, node)),
    hasNextPage: roots.length > page.first,
  };
}
