import type { StoredNode } from '../../strategy.js';
import type { TreeNode, UpdateNodeArgs } from '../../treeStore.js';
import { checkData, checkId, checkName } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { GuardedNode } from './guard/guardedNode.js';
import { commitWrite } from '../guard/guardedTransaction.js';
import { changeTime } from '../core/changeTime.js';
import { replanning } from '../core/replan.js';
import { planPathKeys, planUpdate } from '../core/writePlans.js';
import { draft } from '../changes/recordChanges.js';
import { checkPatchType, patchedData, replacedData } from './typedNodes.js';
import { badInput } from '../../../errors.js';

/**
 * updateNode: a new name or data, in one transaction over the node item and every copy of it
 * (its edge, the projection's copies) and the change's record in its tree's log, on the
 * condition that the node did not change since it was read, nor its tree, and that no job
 * claims it (a claimed node waits for its job, as a structural write does: GuardedNode). No
 * place changes: no guard of a place, but the caller's grant on the node's tree.
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
    const tx = guard.transaction((plan) => {
      updated = planUpdate(plan, { target, name: args.name, data, now, copies });
      planPathKeys(plan, ctx, target.node, updated);
    });
    const place = { parentId: target.node.parentId, path: tree.path };
    const change = draft(tree.rootId, {
      kind: 'UPDATED',
      nodeId: args.id,
      node: updated,
      prior: target.node,
      from: place,
      to: place,
    });
    await commitWrite(ctx, tx, { changes: [change] });
    return updated;
  });
}
