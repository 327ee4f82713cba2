import { countItems } from '../../../dynamodb/query.js';
import type { StrategyContext } from '../../strategy.js';
import type { TreeNode } from '../../treeStore.js';
import { throughQuery } from '../parts/throughQuery.js';
import { closureRange } from './closureKeys.js';

/**
 * The descendants of a node 1 to `maxDepth` levels below it (null: all): its closure rows at
 * those distances, one row per descendant, counted by one `Select: 'COUNT'` Query of the distance
 * range (more only past 1 MB of rows: DynamoDB pages a count as it pages a read). No row needs a
 * filter: a row's key names its ancestor and its descendant whole.
 */
export async function countByRows(ctx: StrategyContext, node: TreeNode, maxDepth: number | null): Promise<number> {
  return countItems(ctx.doc, throughQuery(ctx.table, closureRange(node.id, { minDepth: 1, maxDepth })));
}
