import type { Place, StoredNode } from '../../strategy.js';
import type { TreeNode, UpdateNodeArgs } from '../../treeStore.js';
import { checkData, checkId, checkName } from '../../validation.js';
import { badInput } from '../../../errors.js';
import type { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import type { EngineContext } from '../core/engineContext.js';
import { changeTime } from '../core/changeTime.js';
import { planNodeUnclaimed } from '../core/claims.js';
import { keyOfIn, placeOf, planProjectionMove, rebased, subtreePlaces, withOwnKey } from '../core/projectionPlans.js';
import { readSubtreeWithin } from '../core/reads.js';
import { replanning } from '../core/replan.js';
import { planPathKeys, planUpdate } from '../core/writePlans.js';
import type { ChangeDraft } from '../changes/changeRecord.js';
import { draft, holdsRecords } from '../changes/recordChanges.js';
import { commitWrite, type GuardedTransaction } from '../guard/guardedTransaction.js';
import { announceJob } from '../jobs/announceJob.js';
import { forgetClaiming, startClaiming } from '../jobs/claimSubtree.js';
import { newJob, planJobAccept } from '../jobs/jobRecord.js';
import { acceptingLease, newLease, runStarted } from '../jobs/jobRunner.js';
import { GuardedNode } from './guard/guardedNode.js';
import { claimingOrWaiting, committedUnlessClaimed } from './guard/overlapWait.js';
import { checkPatchType, patchedData, replacedData } from './typedNodes.js';

/**
 * updateNode: a new name or data, in one transaction over the node item and every copy of it
 * (its edge, the projection's copies) and the change's record in its tree's log, on the
 * condition that the node did not change since it was read, nor its tree, and that no job
 * claims it (a claimed node waits for its job, as a structural write does: GuardedNode). No
 * place changes: no guard of a place, but the caller's grant on the node's tree; except that a
 * rename of a path key the strategy keeps (path) rewrites the subtree's as a move would
 * (renameWithSubtree, below).
 */
export async function updateNode(
  ctx: EngineContext,
  args: UpdateNodeArgs,
  options: { check?: (target: StoredNode) => void } = {},
): Promise<TreeNode> {
  checkId(args.id);
  if (args.name != null) checkName(args.name);
  checkData(args.data);
  checkData(args.dataPatch);
  if (args.data !== undefined && args.dataPatch != null) {
    throw badInput('give data (the whole) or dataPatch (a patch), not both', { field: 'dataPatch' });
  }
  return replanning(async () => {
    const read = { id: args.id, expectedVersion: args.expectedVersion, doing: `updating "${args.id}"` };
    const guard = await GuardedNode.read(ctx, { ...read, ...(options.check ? { check: options.check } : {}) });
    const { stored: target, tree, copies } = guard;
    checkPatchType(target.node, args.type);
    if (args.name == null && args.data === undefined && args.dataPatch == null) return target.node;
    const data =
      args.dataPatch != null
        ? patchedData(ctx, target.node, args.dataPatch)
        : args.data === undefined
          ? undefined
          : replacedData(ctx, target.node, args.data);
    const now = changeTime(target.node);
    let updated!: TreeNode;
    const planTruth = (plan: TransactionBuilder) => {
      updated = planUpdate(plan, { target, name: args.name, data, now, copies });
      planPathKeys(plan, ctx, target.node, updated);
    };
    const tx = guard.transaction(planTruth);
    const place = { parentId: target.node.parentId, path: tree.path };
    const change = draft(tree.rootId, {
      kind: 'UPDATED',
      nodeId: args.id,
      node: updated,
      prior: target.node,
      from: place,
      to: place,
    });
    const renamed = renamedPlace(ctx, target, updated);
    if (renamed) {
      const truth = (claimant?: string) => (claimant ? guard.over([target], claimant) : guard).transaction(planTruth);
      return await renameWithSubtree(ctx, { guard, updated, truth, changes: [change] }, renamed);
    }
    await commitWrite(ctx, tx, { changes: [change] });
    return updated;
  });
}

/** An update that renames a node's path key, as updateNode planned it. */
interface Rename {
  guard: GuardedNode;
  /** The node after the update. */
  updated: TreeNode;
  /** The update's transaction (its truth and guards), to extend with the projection. */
  truth: (claimant?: string) => GuardedTransaction;
  changes: ChangeDraft[];
}

/**
 * The node's place once an update is done, when it changes the path key a strategy that keeps
 * path keys (TreeStrategy.keepsKeys) holds of it, its subtree's places with it; null otherwise
 * (a root's path key is on no path).
 */
function renamedPlace(ctx: EngineContext, before: StoredNode, after: TreeNode): { from: Place; to: Place } | null {
  if (!ctx.strategy.keepsKeys || before.node.parentId === null) return null;
  const keyOf = keyOfIn(ctx);
  if (keyOf(before.node) === keyOf(after)) return null;
  const from = placeOf(ctx.strategy, before);
  return { from, to: withOwnKey(from, keyOf(after)) };
}

/**
 * An update that renames a path key the strategy keeps: the node's and its subtree's path keys and
 * projection rewritten, as a move rewrites them (moveNode.ts), in the update's own transaction
 * while the subtree fits one; otherwise a MOVE job to the node's own place claims the subtree,
 * commits the update as it accepts, and rewrites the projection (moveJob.ts).
 */
async function renameWithSubtree(ctx: EngineContext, rename: Rename, places: { from: Place; to: Place }) {
  const { guard, updated, changes } = rename;
  const { from, to } = places;
  const target = guard.stored;
  const truth = rename.truth();
  const below = await readSubtreeWithin(ctx, target, ctx.transactionItems - truth.size);
  if (below) {
    const levels = subtreePlaces(target, from, below, keyOfIn(ctx)).map((p) => ({
      ...p,
      newPlace: rebased(p.place, from, to),
    }));
    const tx = truth.extended((plan) => {
      planProjectionMove(plan, ctx.strategy, levels);
      planNodeUnclaimed(plan, below.flat());
    });
    if (holdsRecords(ctx, tx, changes)) {
      const doing = `updating "${target.node.id}"`;
      await committedUnlessClaimed(ctx, below.flat(), doing, () => commitWrite(ctx, tx, { changes }));
      return { ...updated, ...ctx.strategy.nodeFields(to) };
    }
  }
  return startRenameJob(ctx, rename, to);
}

/** A subtree too big for one transaction: the MOVE job that rewrites it (see renameWithSubtree). */
async function startRenameJob(ctx: EngineContext, rename: Rename, to: Place): Promise<TreeNode> {
  const target = rename.guard.stored;
  const job = newJob('MOVE', target.node.id, null, {
    from: [...to.path],
    to: [...to.path],
    toLineage: [...to.lineage],
    toKeys: [...to.keys],
  });
  const lease = newLease(ctx, job.id);
  const announced = await announceJob(ctx, rename.guard.open);
  const doing = `updating "${target.node.id}"`;
  await claimingOrWaiting(ctx, startClaiming(ctx, { job, lease, root: target, announced }), doing);
  try {
    const tx = rename
      .truth(job.id)
      .extended((plan) => planJobAccept(plan, acceptingLease(ctx, lease), Date.now(), job));
    await commitWrite(ctx, tx, { changes: rename.changes });
  } catch (error) {
    await forgetClaiming(ctx, lease, target.node.id);
    throw error;
  }
  runStarted(ctx, job, lease);
  return rename.updated;
}
