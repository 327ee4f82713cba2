import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { transactWrite } from '../../../dynamodb/transactWrite.js';
import type { StoredNode } from '../../strategy.js';
import type { TreeNode, UpdateNodeArgs } from '../../treeStore.js';
import { checkData, checkId, checkName } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { checkVersion, copiesIn, readNodeTree } from './guardedPlace.js';
import { changeTime } from '../core/changeTime.js';
import { live } from '../core/items.js';
import { readVisible, type ReadScope } from '../reads/liveNodes.js';
import { NO_OPEN_JOBS } from '../core/openJobs.js';
import { replanning } from '../core/replan.js';
import { planUpdate } from '../core/writePlans.js';
import { draft, recorded, withRecords } from '../changes/recordChanges.js';
import { otherClaim, planNodeUnclaimed } from '../core/claims.js';
import { waitForOverlappingJob } from './overlapWait.js';

/**
 * updateNode: a new name or data, in one transaction over the node item and every copy of it
 * (its edge, the projection's copies) and the change's record in its tree's log, on the
 * condition that the node did not change since it was read, nor its tree (readNodeTree), and that
 * no job claims it (a claimed node waits for its job, as a structural write does). No place
 * changes: no guard of a place, but the caller's grant on the node's tree.
 */
export async function updateNode(
  ctx: EngineContext,
  args: UpdateNodeArgs,
  options: { check?: (target: StoredNode) => void } = {},
): Promise<TreeNode> {
  checkId(args.id);
  if (args.name != null) checkName(args.name);
  checkData(args.data);
  return replanning(async () => {
    const scope: ReadScope = {};
    const target = live(await readVisible(ctx, [args.id], scope), args.id);
    checkVersion(target, args.expectedVersion);
    options.check?.(target);
    // A claimed node is closed to renames too (claims.ts): its job goes first.
    const claim = otherClaim(target);
    if (claim) await waitForOverlappingJob(ctx, claim, `updating "${args.id}"`);
    const open = scope.open ?? NO_OPEN_JOBS;
    const tree = await readNodeTree(ctx, target, open);
    if (args.name == null && args.data === undefined) return target.node;
    const tx = new TransactionBuilder(ctx.table);
    const now = changeTime(target.node);
    const updated = planUpdate(tx, { target, name: args.name, data: args.data, now, copies: copiesIn(ctx, open) });
    planNodeUnclaimed(tx, [target]);
    tree.guard(tx);
    const place = { parentId: target.node.parentId, path: tree.path };
    const change = draft(tree.rootId, {
      kind: 'UPDATED',
      nodeId: args.id,
      node: updated,
      prior: target.node,
      from: place,
      to: place,
    });
    await recorded(ctx, [change], (planRecords) => transactWrite(ctx.doc, withRecords(tx, planRecords).build()));
    return updated;
  });
}
