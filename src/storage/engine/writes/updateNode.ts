import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { transactWrite } from '../../../dynamodb/transactWrite.js';
import type { TreeNode, UpdateNodeArgs } from '../../treeStore.js';
import { checkData, checkId, checkName } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { checkVersion, copiesIn, readNodeTree } from './guardedPlace.js';
import { live } from '../core/items.js';
import { readVisible, type ReadScope } from '../reads/liveNodes.js';
import { NO_OPEN_JOBS } from '../core/openJobs.js';
import { replanning } from '../core/replan.js';
import { planUpdate } from '../core/writePlans.js';

/**
 * updateNode: a new name or data, in one transaction over the node item and every copy of it
 * (its edge, the projection's copies), on the condition that the node did not change since it
 * was read. No place changes: no guard of a place, but the caller's grant on the node's tree.
 */
export async function updateNode(ctx: EngineContext, args: UpdateNodeArgs): Promise<TreeNode> {
  checkId(args.id);
  if (args.name != null) checkName(args.name);
  checkData(args.data);
  return replanning(async () => {
    const scope: ReadScope = {};
    const target = live(await readVisible(ctx, [args.id], scope), args.id);
    checkVersion(target, args.expectedVersion);
    const guardTree = await readNodeTree(ctx, target);
    if (args.name == null && args.data === undefined) return target.node;
    const tx = new TransactionBuilder(ctx.table);
    const now = new Date().toISOString();
    const copies = copiesIn(ctx, scope.open ?? NO_OPEN_JOBS);
    const updated = planUpdate(tx, { target, name: args.name, data: args.data, now, copies });
    guardTree(tx);
    await transactWrite(ctx.doc, tx.build());
    return updated;
  });
}
