import { keyQuery } from '../../../dynamodb/keyQuery.js';
import { forEachQueryPage } from '../../../dynamodb/query.js';
import type { Place, StrategyContext } from '../../strategy.js';
import type { TreeNode } from '../../treeStore.js';
import { documentKey, documentStep, rangePk, subtreeRange } from './rangeKeys.js';

/**
 * Whether any node lies `depth` or more levels below `node`: its range (each branch's, below a
 * root) read in 1 MB pages, keys only, filtered on the depth of the path each item keeps, until
 * the first match. A 10,000-node subtree is a handful of pages, where a walk of its levels is a
 * Query per parent.
 */
export async function reachesDepth(ctx: StrategyContext, node: TreeNode, depth: number): Promise<boolean> {
  const place: Place = { path: node.path ?? [], lineage: node.lineage ?? [] };
  const key = documentKey(node.id, place);
  const ranges =
    key === null
      ? (await ctx.readChildren(node.id)).map((child) => ({
          pk: rangePk(child.node.id),
          key: documentStep(child.node.position, child.node.id),
        }))
      : [{ pk: rangePk(place.path[1] ?? node.id), key }];
  for (const range of ranges) {
    const base = keyQuery(ctx.table, { pk: range.pk, sk: { between: subtreeRange(range.key) } });
    const query = {
      ...base,
      ProjectionExpression: '#sk',
      FilterExpression: 'size(#path) >= :depth',
      ExpressionAttributeNames: { ...base.ExpressionAttributeNames, '#path': 'path' },
      ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ':depth': place.path.length + depth },
    };
    let found = false;
    await forEachQueryPage(ctx.doc, query, (items) => (found = items.length > 0));
    if (found) return true;
  }
  return false;
}
