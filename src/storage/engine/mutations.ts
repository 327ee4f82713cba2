import { randomUUID } from 'node:crypto';
import { TransactionBuilder } from '../../dynamodb/transactionBuilder.js';
import { ConditionFailed, transactWrite, TRANSACTION_LIMIT } from '../../dynamodb/transactWrite.js';
import { TreeError, notFound } from '../../errors.js';
import type { MovedNode, StoredNode } from '../strategy.js';
import type {
  CreateNodeArgs,
  DeleteNodeArgs,
  DeleteResult,
  MoveNodeArgs,
  TreeNode,
  UpdateNodeArgs,
} from '../treeStore.js';
import { checkData, checkId, checkName } from '../validation.js';
import type { EngineContext, TableContext } from './engineContext.js';
import { live } from './items.js';
import { newJobId, planJobStart, publicJob, type JobRecord, type Lease } from './jobRecord.js';
import { newLease, runLeased } from './jobRunner.js';
import { placeOf, planProjectionCreate, planProjectionDelete, planProjectionMove, subtreePaths } from './projectionPlans.js';
import { readVisible } from './liveNodes.js';
import { readStored, readSubtreeLevels } from './reads.js';
import { findSlot } from './slot.js';
import { planCreate, planDeleteSubtree, planDetachForDelete, planMove, planUpdate } from './writePlans.js';

/**
 * The mutations. Each attempt reads what it needs (strongly consistent), validates (throwing
 * the typed errors of errors.ts), and commits one transaction: the truth's plan, the strategy's
 * guard on the new parent's chain, and the projection derived from the strategy, guarded by
 * conditions on everything it read. When a condition fails, the tree changed under us: re-read
 * and re-plan, a bounded number of times, then CONFLICT.
 *
 * The depth limit (MAX_TREE_DEPTH) is enforced here, by checkDepth, on every create and move.
 * A move's cycle check is here at read time (the new parent's chain holds the moving node);
 * at commit time it is the strategy's guardChain.
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

function checkDepth(ctx: TableContext, depth: number): void {
  if (depth > ctx.maxTreeDepth) {
    throw new TreeError('DEPTH_LIMIT', `the write would put a node at depth ${depth}; the limit is ${ctx.maxTreeDepth}`, {
      depth,
      maxDepth: ctx.maxTreeDepth,
    });
  }
}

/** The node as returned to the caller, with the place facts the write computed anyway. */
const placed = (node: TreeNode, chain: StoredNode[]): TreeNode => ({
  ...node,
  depth: chain.length,
  rootId: chain[0]?.node.id ?? node.id,
});

export async function createNode(ctx: EngineContext, args: CreateNodeArgs): Promise<TreeNode> {
  const id = args.id == null ? randomUUID() : checkId(args.id);
  const parentId = args.parentId == null ? null : checkId(args.parentId, 'parentId');
  checkName(args.name);
  checkData(args.data);
  if (args.before != null) checkId(args.before, 'before');
  if (args.after != null) checkId(args.after, 'after');
  return replanning(async () => {
    const known = await readVisible(ctx, ids(id, parentId, args.before, args.after));
    if (known.has(id)) throw new TreeError('ALREADY_EXISTS', `a node with id "${id}" already exists`, { id });
    const chain = parentId === null ? [] : await ctx.strategy.readChain(ctx, live(known, parentId, 'parent'));
    checkDepth(ctx, chain.length);
    const path = chain.map((c) => c.node.id);
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
      ...ctx.strategy.nodeFields(path),
    };
    const tx = new TransactionBuilder(ctx.table);
    planCreate(tx, { node, chain, slot });
    ctx.strategy.guardChain(tx, chain);
    planProjectionCreate(tx, ctx.strategy, id, path);
    await commit(ctx, tx, 'creating', id, 1);
    return placed(node, chain);
  });
}

export async function updateNode(ctx: EngineContext, args: UpdateNodeArgs): Promise<TreeNode> {
  checkId(args.id);
  if (args.name != null) checkName(args.name);
  checkData(args.data);
  return replanning(async () => {
    const target = live(await readVisible(ctx, [args.id]), args.id);
    checkVersion(target, args.expectedVersion);
    if (args.name == null && args.data === undefined) return target.node;
    const tx = new TransactionBuilder(ctx.table);
    const updated = planUpdate(tx, { target, name: args.name, data: args.data, now: new Date().toISOString() });
    await transactWrite(ctx.doc, tx.build());
    return updated;
  });
}

export async function moveNode(ctx: EngineContext, args: MoveNodeArgs): Promise<TreeNode> {
  checkId(args.id);
  const parentId = args.newParentId == null ? null : checkId(args.newParentId, 'newParentId');
  if (args.before != null) checkId(args.before, 'before');
  if (args.after != null) checkId(args.after, 'after');
  return replanning(async () => {
    const known = await readVisible(ctx, ids(args.id, parentId, args.before, args.after));
    const moving = live(known, args.id);
    checkVersion(moving, args.expectedVersion);
    if (parentId === args.id) throw new TreeError('CYCLE', `cannot move "${args.id}" under itself`);
    const chain = parentId === null ? [] : await ctx.strategy.readChain(ctx, live(known, parentId, 'new parent'));
    if (chain.some((c) => c.node.id === args.id)) {
      throw new TreeError('CYCLE', `cannot move "${args.id}" under its own descendant "${parentId}"`);
    }
    const slot = await findSlot(
      ctx,
      { parentId, placingId: args.id, before: args.before, after: args.after, known },
      moving.node,
    );
    if (slot.unchanged) return moving.node;
    const reparenting = moving.node.parentId !== parentId;
    const subtree = reparenting ? await readMovedSubtree(ctx, moving, chain) : [];
    const oldParentId = moving.node.parentId;
    const oldParent =
      oldParentId === null
        ? null
        : (chain.find((c) => c.node.id === oldParentId) ??
          live(await readStored(ctx, [oldParentId]), oldParentId, 'parent'));
    const tx = new TransactionBuilder(ctx.table);
    const moved = planMove(tx, { moving, oldParent, chain, slot, now: new Date().toISOString() });
    ctx.strategy.guardChain(tx, chain);
    if (subtree.length > 0) {
      planProjectionMove(tx, ctx.strategy, subtree);
      Object.assign(moved, ctx.strategy.nodeFields(subtree[0]!.newPath));
    }
    await commit(ctx, tx, 'moving', args.id, subtree.length);
    return placed(moved, chain);
  });
}

/**
 * Reads the subtree a move to another parent takes along: its height, for the depth limit, and
 * every node with its old and new path, for the projection. Reading one level past the room
 * left under the limit is enough: a legal move's subtree is then read whole.
 */
async function readMovedSubtree(ctx: EngineContext, moving: StoredNode, chain: StoredNode[]): Promise<MovedNode[]> {
  const newDepth = chain.length;
  checkDepth(ctx, newDepth);
  const room = ctx.maxTreeDepth - newDepth;
  const levels = await readSubtreeLevels(ctx, moving, room + 1);
  checkDepth(ctx, newDepth + levels.length);
  const oldPath = placeOf(ctx.strategy, moving);
  const newPath = chain.map((c) => c.node.id);
  return subtreePaths(moving, oldPath, levels).map((p) => ({
    ...p,
    newPath: [...newPath, ...p.path.slice(oldPath.length)],
  }));
}

/** Commits one transaction, or refuses a write whose projection does not fit in one. */
async function commit(ctx: EngineContext, tx: TransactionBuilder, doing: string, id: string, nodes: number) {
  if (tx.size > TRANSACTION_LIMIT) {
    throw new TreeError(
      'SUBTREE_TOO_LARGE',
      `${doing} "${id}" would write ${tx.size} items for its ${nodes} node(s); one transaction holds at most ${TRANSACTION_LIMIT}`,
      { subtreeSize: nodes, items: tx.size, limit: TRANSACTION_LIMIT },
    );
  }
  await transactWrite(ctx.doc, tx.build());
}

/**
 * Deletes a node and its subtree: one transaction when it fits; otherwise one transaction
 * detaches the subtree (from then on no read returns any of it) and records a job, which this
 * process then runs under the job's lease, outside the re-planning loop: once the detach has
 * committed the delete is applied, whatever happens to the job (any live process finishes it).
 */
export async function deleteNode(ctx: EngineContext, args: DeleteNodeArgs): Promise<DeleteResult> {
  checkId(args.id);
  type Started = DeleteResult | { deletedCount: number; job: JobRecord; lease: Lease };
  const started = await replanning(async (): Promise<Started> => {
    const root = live(await readVisible(ctx, [args.id]), args.id);
    checkVersion(root, args.expectedVersion);
    const parentId = root.node.parentId;
    const [parent, levels] = await Promise.all([
      parentId === null ? null : readStored(ctx, [parentId]).then((m) => m.get(parentId) ?? null),
      readSubtreeLevels(ctx, root),
    ]);
    if (parentId !== null && !parent) throw notFound('parent', parentId);
    const descendants = levels.flat();
    const tx = new TransactionBuilder(ctx.table);
    planDeleteSubtree(tx, { root, descendants, parent });
    planProjectionDelete(tx, ctx.strategy, subtreePaths(root, placeOf(ctx.strategy, root), levels));
    if (tx.size <= TRANSACTION_LIMIT) {
      await transactWrite(ctx.doc, tx.build());
      return { deletedCount: descendants.length + 1 };
    }
    const now = Date.now();
    const job: JobRecord = {
      id: newJobId(now, randomUUID().slice(0, 8)),
      kind: 'DELETE',
      status: 'RUNNING',
      done: 0,
      total: descendants.length + 1,
      startedAt: new Date(now).toISOString(),
      nodeId: root.node.id,
      leaseToken: null,
      leaseExpiresAt: 0,
    };
    const lease = newLease(ctx, job.id);
    const detach = new TransactionBuilder(ctx.table);
    planDetachForDelete(detach, { root, parent, jobId: job.id });
    planJobStart(detach, publicJob(job), lease, now);
    await transactWrite(ctx.doc, detach.build());
    return { deletedCount: descendants.length + 1, job, lease };
  });
  if (!('lease' in started)) return started;
  const { job, lease, deletedCount } = started;
  const finished = await runLeased(ctx, job, lease);
  return { deletedCount, job: publicJob(finished ? { ...job, status: 'DONE', done: deletedCount } : job) };
}
