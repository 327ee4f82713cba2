import { keyQuery } from '../../../dynamodb/keyQuery.js';
import { forEachQueryPage } from '../../../dynamodb/query.js';
import type { Place, StrategyContext } from '../../strategy.js';
import type { TreeNode } from '../../treeStore.js';
import { subtreeKeys } from './rangeKeys.js';

/**
 * Whether any node lies `depth` or more levels below `node`: its range read in 1 MB pages, keys
 * only, filtered on the depth of the path each item keeps, until the first match. A 10,000-node
 * subtree is a handful of pages, where a walk of its levels is a Query per parent.
 */
export async function reachesDepth(ctx: StrategyContext, node: TreeNode, depth: number): Promise<boolean> {
  const place: Place = { path: node.path ?? [], lineage: node.lineage ?? [], keys: [] };
  const base = keyQuery(ctx.table, subtreeKeys(node.id, place));
  const query = {
    ...base,
    ProjectionExpression: '#pk',
    FilterExpression: 'size(#path) >= :depth',
    ExpressionAttributeNames: { ...base.ExpressionAttributeNames, '#path': 'path' },
    ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ':depth': place.path.length + depth },
  };
  let found = false;
  await forEachQueryPage(ctx.doc, query, (items) => (found = items.length > 0));
  return found;
}
