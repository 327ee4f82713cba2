import { randomUUID } from 'node:crypto';
import { TransactionBuilder } from '../../dynamodb/transactionBuilder.js';
import { ConditionFailed, transactWrite } from '../../dynamodb/transactWrite.js';
import { TreeError, notFound } from '../../errors.js';
import type { StoredNode } from '../items.js';
import type {
  CreateNodeArgs,
  DeleteNodeArgs,
  MoveNodeArgs,
  TreeNode,
  UpdateNodeArgs,
} from '../treeStore.js';
import { checkData, checkId, checkName } from '../validation.js';
import type { StoreContext } from './context.js';
import { live, readChain, readStored, readSubtreeLevels } from './reads.js';
import { findSlot } from './slot.js';
import { planCreate, planDeleteSubtree, planDetachForDelete, planMove, planUpdate } from './writePlans.js';
import { runDeleteJob } from './deleteJob.js';
import { TRANSACTION_LIMIT } from '../../dynamodb/transactWrite.js';

/**
 * The truth's mutations. Each attempt reads what it needs (strongly consistent), validates
 * (throwing the typed errors of API.md), and commits one transaction guarded by conditions on
 * everything it read. When a condition fails, the tree changed under us: re-read and re-plan,
 * a bounded number of times, then CONFLICT.
 */
export const MAX_REPLANS = 6;

async function replanning<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 0; i < MAX_REPLANS; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
    }
  }
  throw new TreeError('CONFLICT', 'the tree kept changing under this write; try again');
}

const ids = (...values: Array<string | null | undefined>): string[] =>
  [...new Set(values.filter((v): v is string => typeof v === 'string'))];

function checkVersion(stored: StoredNode, expected: number | null | undefined): void {
  if (expected !== null && expected !== undefined && stored.node.version !== expected) {
    throw new TreeError(
      'VERSION_CONFLICT',
      `node "${stored.node.id}" is at version ${stored.node.version}, expected ${expected}`,
      { currentVersion: stored.node.version },
    );
  }
}

function checkDepth(ctx: StoreContext, depth: number): void {
  if (depth > ctx.maxDepth) {
    throw new TreeError('DEPTH_LIMIT', `the write would put a node at depth ${depth}; the limit is ${ctx.maxDepth}`, {
      depth,
      maxDepth: ctx.maxDepth,
    });
  }
}

/** The node as returned to the caller, with the place facts the write computed anyway. */
const placed = (node: TreeNode, chain: StoredNode[]): TreeNode => ({
  ...node,
  depth: chain.length,
  rootId: chain[0]?.node.id ?? node.id,
});

export async function createNode(ctx: StoreContext, args: CreateNodeArgs): Promise<TreeNode> {
  const id = args.id == null ? randomUUID() : checkId(args.id);
  const parentId = args.parentId == null ? null : checkId(args.parentId, 'parentId');
  checkName(args.name);
  checkData(args.data);
  if (args.before != null) checkId(args.before, 'before');
  if (args.after != null) checkId(args.after, 'after');
  return replanning(async () => {
    const known = await readStored(ctx, ids(id, parentId, args.before, args.after));
    if (known.has(id)) throw new TreeError('ALREADY_EXISTS', `a node with id "${id}" already exists`, { id });
    const chain = parentId === null ? [] : await readChain(ctx, live(known, parentId, 'parent'));
    checkDepth(ctx, chain.length);
    const slot = await findSlot(ctx, { parentId, placingId: id, before: args.before, after: args.after, known });
    const now = new Date().toISOString();
    const node: TreeNode = {
      id,
      parentId,
      name: args.name,
      position: slot.position,
      version: 1,
      childCount: 0,
      data: args.data ?? null,
      createdAt: now,
      updatedAt: now,
    };
    const tx = new TransactionBuilder(ctx.table);
    planCreate(tx, { node, chain, slot });
    await transactWrite(ctx.doc, tx.build());
    return placed(node, chain);
  });
}

export async function updateNode(ctx: StoreContext, args: UpdateNodeArgs): Promise<TreeNode> {
  checkId(args.id);
  if (args.name != null) checkName(args.name);
  checkData(args.data);
  return replanning(async () => {
    const target = live(await readStored(ctx, [args.id]), args.id);
    checkVersion(target, args.expectedVersion);
    if (args.name == null && args.data === undefined) return target.node;
    const tx = new TransactionBuilder(ctx.table);
    const updated = planUpdate(tx, { target, name: args.name, data: args.data, now: new Date().toISOString() });
    await transactWrite(ctx.doc, tx.build());
    return updated;
  });
}

export async function moveNode(ctx: StoreContext, args: MoveNodeArgs): Promise<TreeNode> {
  checkId(args.id);
  const parentId = args.newParentId == null ? null : checkId(args.newParentId, 'newParentId');
  if (args.before != null) checkId(args.before, 'before');
  if (args.after != null) checkId(args.after, 'after');
  return replanning(async () => {
    const known = await readStored(ctx, ids(args.id, parentId, args.before, args.after));
    const moving = live(known, args.id);
    checkVersion(moving, args.expectedVersion);
    if (parentId === args.id) throw new TreeError('CYCLE', `cannot move "${args.id}" under itself`);
    const chain = parentId === null ? [] : await readChain(ctx, live(known, parentId, 'new parent'));
    if (chain.some((c) => c.node.id === args.id)) {
      throw new TreeError('CYCLE', `cannot move "${args.id}" under its own descendant "${parentId}"`);
    }
    const slot = await findSlot(
      ctx,
      { parentId, placingId: args.id, before: args.before, after: args.after, known },
      moving.node,
    );
    if (slot.unchanged) return moving.node;
    if (moving.node.parentId !== parentId) await checkMovedHeight(ctx, moving, chain.length);
    const oldParentId = moving.node.parentId;
    const oldParent =
      oldParentId === null
        ? null
        : (chain.find((c) => c.node.id === oldParentId) ??
          live(await readStored(ctx, [oldParentId]), oldParentId, 'parent'));
    const tx = new TransactionBuilder(ctx.table);
    const moved = planMove(tx, { moving, oldParent, chain, slot, now: new Date().toISOString() });
    await transactWrite(ctx.doc, tx.build());
    return placed(moved, chain);
  });
}

/** A move is refused when the deepest node of the moved subtree would pass the depth limit. */
async function checkMovedHeight(ctx: StoreContext, moving: StoredNode, newDepth: number): Promise<void> {
  checkDepth(ctx, newDepth);
  const room = ctx.maxDepth - newDepth;
  // Reading one level past the room is enough to know the subtree does not fit.
  const levels = await readSubtreeLevels(ctx, moving, room + 1);
  checkDepth(ctx, newDepth + levels.length);
}

export async function deleteNode(ctx: StoreContext, args: DeleteNodeArgs): Promise<{ deletedCount: number }> {
  checkId(args.id);
  return replanning(async () => {
    const root = live(await readStored(ctx, [args.id]), args.id);
    checkVersion(root, args.expectedVersion);
    const parentId = root.node.parentId;
    const [parent, levels] = await Promise.all([
      parentId === null ? null : readStored(ctx, [parentId]).then((m) => m.get(parentId) ?? null),
      readSubtreeLevels(ctx, root),
    ]);
    if (parentId !== null && !parent) throw notFound('parent', parentId);
    const descendants = levels.flat();
    const actions = 2 * (descendants.length + 1) + (parent ? 2 : 0);
    const now = new Date().toISOString();
    if (actions <= TRANSACTION_LIMIT) {
      const tx = new TransactionBuilder(ctx.table);
      planDeleteSubtree(tx, { root, descendants, parent });
      await transactWrite(ctx.doc, tx.build());
      return { deletedCount: descendants.length + 1 };
    }
    const jobId = randomUUID();
    const tx = new TransactionBuilder(ctx.table);
    planDetachForDelete(tx, { root, parent, jobId, now });
    await transactWrite(ctx.doc, tx.build());
    return runDeleteJob(ctx, root.node.id, jobId);
  });
}
