import { randomUUID } from 'node:crypto';
import { TreeError } from '../../../errors.js';
import type { CreateNodeArgs, TreeNode } from '../../treeStore.js';
import { checkData, checkId, checkName } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { readPlace } from './guard/guardedPlace.js';
import { commitWrite } from '../guard/guardedTransaction.js';
import { draft } from '../changes/recordChanges.js';
import { newIncarnation } from '../core/items.js';
import { keyOfIn, planProjectionCreate } from '../core/projectionPlans.js';
import { replanning } from '../core/replan.js';
import { findSlot } from './slot.js';
import { checkChildType, typedNew } from './typedNodes.js';
import { planCreate, planPathKeys } from '../core/writePlans.js';

/**
 * createNode: one node under a parent (or a root), in one transaction: its node item, its edge,
 * the parent's childCount, the guard on the neighbours of its slot, its projection items, the
 * guards of its place (guard/guardedPlace.ts), and its record in its tree's change log (changes/). A
 * condition that fails means the tree changed under it: read and plan again (replanning).
 */
export async function createNode(ctx: EngineContext, args: CreateNodeArgs): Promise<TreeNode> {
  const id = args.id == null ? randomUUID() : checkId(args.id);
  const parentId = args.parentId == null ? null : checkId(args.parentId, 'parentId');
  checkName(args.name);
  const typed = typedNew(ctx, args.type, args.data);
  checkData(typed.data);
  if (args.before != null) checkId(args.before, 'before');
  if (args.after != null) checkId(args.after, 'after');
  return replanning(async () => {
    const place = await readPlace(ctx, {
      parentId,
      parentLabel: 'parent',
      alsoRead: [id, args.before, args.after],
      doing: `creating "${id}"`,
      check: (known) => {
        if (known.has(id)) throw new TreeError('ALREADY_EXISTS', `a node with id "${id}" already exists`, { id });
      },
    });
    place.checkDepthBelow(1);
    checkChildType(ctx, place.parent, typed.type);
    const { known, chain } = place;
    const slot = await findSlot(ctx, { parentId, placingId: id, before: args.before, after: args.after, known });
    const at = place.placeAt(slot.position, keyOfIn(ctx)({ type: typed.type, data: typed.data }));
    const now = new Date().toISOString();
    const node: TreeNode = {
      id,
      parentId,
      name: args.name,
      position: slot.position,
      version: 1,
      childCount: 0,
      data: typed.data,
      ...(typed.type ? { type: typed.type } : {}),
      createdAt: now,
      updatedAt: now,
      incarnation: newIncarnation(),
      ...ctx.strategy.nodeFields(at),
    };
    const tx = place.transaction((plan) => {
      planCreate(plan, { node, chain: [...chain], slot, copies: place.copies });
      planPathKeys(plan, ctx, null, node);
      planProjectionCreate(plan, ctx.strategy, node, at);
    });
    const change = draft(chain[0]?.node.id ?? id, {
      kind: 'CREATED',
      nodeId: id,
      node,
      to: { parentId, path: chain.map((c) => c.node.id) },
      count: 1,
    });
    await commitWrite(ctx, tx, { changes: [change], slot });
    return placed(node, chain.length, chain[0]?.node.id);
  });
}

/** The node as returned to the caller, with the place facts the write computed anyway. */
export const placed = (node: TreeNode, depth: number, rootId: string | undefined): TreeNode => ({
  ...node,
  depth,
  rootId: rootId ?? node.id,
});
