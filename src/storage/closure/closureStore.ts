import { queryItems } from '../../dynamodb/query.js';
import { decodeWindowCursor, encodeWindowCursor } from '../cursor.js';
import { ancestorsByPath } from '../truth/ancestorsByPath.js';
import type { StoreContext } from '../truth/context.js';
import { TruthStore } from '../truth/truthStore.js';
import type { DepthWindow, NodeReader, Page, PageArgs, TreeNode } from '../treeStore.js';
import { checkPage, checkWindow } from '../validation.js';
import { CLOSURE_PREFIX, distanceSk } from './closureKeys.js';
import { CLOSURE_PROJECTION } from './closureProjection.js';

/**
 * Closure table. Descendants: one Query of the node's rows with the distance range in the key
 * condition (exact, paged by DynamoDB), then one BatchGet of the page's nodes. Ancestors: one
 * BatchGet of the ids on the stored path. Within one depth, descendants come in id order.
 */
const MAX_DISTANCE_SK = `${CLOSURE_PREFIX}999#~`;

export class ClosureStore extends TruthStore {
  readonly strategy = 'closure' as const;

  constructor(ctx: Omit<StoreContext, 'projection'>) {
    super({ ...ctx, projection: CLOSURE_PROJECTION });
  }

  ancestors(nodes: readonly TreeNode[], read: NodeReader): Promise<TreeNode[][]> {
    return ancestorsByPath(nodes, read, (ids) => this.getNodes(ids));
  }

  async descendants(node: TreeNode, window: DepthWindow, page: PageArgs): Promise<Page> {
    checkPage(page);
    checkWindow(window);
    const after = page.after == null ? undefined : this.decodeCursor(page.after, node, window);
    const cursorOf = (s: string) => encodeWindowCursor(this.ctx.cursors, node.id, window, { s });
    const edges: Page['edges'] = [];
    if (window.minDepth === 0 && after === undefined) edges.push({ cursor: cursorOf(''), node });
    const wanted = page.first + 1 - edges.length;
    const pk = `N#${node.id}`;
    const lo = distanceSk(Math.max(1, window.minDepth));
    const hi = window.maxDepth === null ? MAX_DISTANCE_SK : `${distanceSk(window.maxDepth)}~`;
    const rows =
      window.maxDepth === 0
        ? []
        : (
            await queryItems(
              this.ctx.doc,
              {
                TableName: this.ctx.table,
                KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
                ExpressionAttributeValues: { ':pk': pk, ':lo': lo, ':hi': hi },
                ExclusiveStartKey: after ? { pk, sk: after } : undefined,
              },
              wanted,
            )
          ).items;
    const total = edges.length + rows.length;
    const pageRows = rows.slice(0, page.first - edges.length);
    const nodes = await this.getNodes(pageRows.map((row) => String(row.id)));
    for (const row of pageRows) {
      const found = nodes.get(String(row.id));
      if (found) edges.push({ cursor: cursorOf(String(row.sk)), node: found });
    }
    return { edges, hasNextPage: total > page.first };
  }

  /** The sort key to resume after ('' for the node itself: resume at the first row). */
  private decodeCursor(raw: string, origin: TreeNode, window: DepthWindow): string | null {
    const c = decodeWindowCursor(this.ctx.cursors, raw, origin.id, window, (p) =>
      typeof p.s === 'string' && (p.s === '' || p.s.startsWith(CLOSURE_PREFIX)),
    );
    return c.s === '' ? null : (c.s as string);
  }
}
