import { EDGE_SK_PREFIX } from '../../dynamodb/keys.js';
import { keyQuery } from '../../dynamodb/keyQuery.js';
import { queryItems } from '../../dynamodb/query.js';
import { badInput } from '../../errors.js';
import { edgeWithCursor } from '../cursor.js';
import type { Page, PageArgs } from '../treeStore.js';
import { checkPage } from '../validation.js';
import type { EngineContext } from './engineContext.js';
import { collectionPk, nodeFromItem } from './items.js';
import { childrenQuery } from './readPlans.js';

/**
 * A page of a parent's children (or of the roots): one strongly consistent Query of the edge
 * items, already in sibling order. It asks for one item more than the page, so hasNextPage is
 * exact. The cursor names the last edge's sort key, so it keeps its place whatever changes.
 */
export async function childrenPage(ctx: EngineContext, parentId: string | null, page: PageArgs): Promise<Page> {
  checkPage(page);
  const pk = collectionPk(parentId);
  let startSk: string | undefined;
  if (page.after != null) {
    const cursor = ctx.cursors.decode(page.after);
    if (cursor.t !== 'c' || cursor.p !== pk || typeof cursor.s !== 'string' || !cursor.s.startsWith(EDGE_SK_PREFIX)) {
      throw badInput('"after" is not a cursor of this list of children');
    }
    startSk = cursor.s;
  }
  const { items } = await queryItems(ctx.doc, keyQuery(ctx.table, childrenQuery(parentId, startSk)), page.first + 1);
  return {
    edges: items.slice(0, page.first).map((item) => edgeWithCursor(ctx.cursors, { t: 'c', p: pk, s: item.sk }, nodeFromItem(item))),
    hasNextPage: items.length > page.first,
  };
}
