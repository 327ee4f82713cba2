import { randomUUID } from 'node:crypto';
import { TransactionBuilder } from '../../dynamodb/transactionBuilder.js';
import { batchGetItems } from '../../dynamodb/batchGet.js';
import { sleep } from '../../dynamodb/backoff.js';
import { transactWrite } from '../../dynamodb/transactWrite.js';
import { TreeError, notFound } from '../../errors.js';
import type { Place, StoredNode } from '../strategy.js';
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
import { live, withPath } from './items.js';
import { jobFromItem, jobKey, newJob, planJobStart, planOpenJobsUnchanged, publicJob, type JobRecord, type Lease } from './jobRecord.js';
import { runLeased, runStarted, startingLease } from './jobRunner.js';
import {
  copyKeys,
  keptFields,
  placeOf,
  rebased,
  planProjectionCreate,
  planProjectionDelete,
  planProjectionMove,
  subtreePlaces,
} from './projectionPlans.js';
import { readVisible, type ReadScope } from './liveNodes.js';
import { moveOf, NO_OPEN_JOBS, overlappingMove, settledPath } from './openJobs.js';
import { readStored, readSubtreeWithin } from './reads.js';
import { mustReplan, Replan } from './replan.js';
import { findSlot } from './slot.js';
import {
  planCreate,
  planDeleteSubtree,
  planDetachForDelete,
  planHold,
  planMove,
  planMoveJobStarted,
  planNotRespacing,
  planRelease,
  planRenewHold,
  planUpdate,
  type CopiesOf,
} from './writePlans.js';

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

export async function replanning<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 0; i < MAX_REPLANS; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!mustReplan(error)) throw error;
    }
  }
  throw new TreeError('CONFLICT', 'the tree kept changing under this write; try again');
}

/**
 * Where the strategy keeps copies of a node (none under adjacency, nor when a reindex gave the
 * table another strategy's projection: OpenJobs.projection).
 */
export function copiesIn(ctx: EngineContext, scope: ReadScope): CopiesOf {
  const projection = scope.open?.projection;
  if (projection !== undefined && projection !== ctx.strategy.name) return () => [];
  return (stored) => copyKeys(ctx.strategy, stored);
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

export function checkDepth(ctx: TableContext, depth: number): void {
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
    const scope: ReadScope = {};
    const known = await readVisible(ctx, ids(id, parentId, args.before, args.after), scope);
    if (known.has(id)) throw new TreeError('ALREADY_EXISTS', `a node with id "${id}" already exists`, { id });
    const chain = parentId === null ? [] : await ctx.strategy.readChain(ctx, live(known, parentId, 'parent'));
    const parent = chain[chain.length - 1];
    refuseWhileRespacing(parent, Date.now());
    const overlap = parent && moveOf(scope.open ?? NO_OPEN_JOBS, parent.node.id, settledPlace(ctx, scope, parent));
    if (overlap) await waitForJob(ctx, overlap.id, `creating "${id}"`);
    checkDepth(ctx, chain.length);
    const slot = await findSlot(ctx, { parentId, placingId: id, before: args.before, after: args.after, known });
    const place = chainPlace(chain, slot.position);
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
      ...ctx.strategy.nodeFields(place),
    };
    const tx = new TransactionBuilder(ctx.table);
    planCreate(tx, { node, chain, slot, copies: copiesIn(ctx, scope) });
    ctx.strategy.guardChain(tx, chain, Date.now());
    planNotRespacing(tx, parent, Date.now());
    planProjectionCreate(tx, ctx.strategy, node, place);
    planOpenJobsUnchanged(tx, (scope.open ?? NO_OPEN_JOBS).rev);
    await transactWrite(ctx.doc, tx.build());
    return placed(node, chain);
  });
}

export async function updateNode(ctx: EngineContext, args: UpdateNodeArgs): Promise<TreeNode> {
  checkId(args.id);
  if (args.name != null) checkName(args.name);
  checkData(args.data);
  return replanning(async () => {
    const scope: ReadScope = {};
    const target = live(await readVisible(ctx, [args.id], scope), args.id);
    checkVersion(target, args.expectedVersion);
    if (args.name == null && args.data === undefined) return target.node;
    const tx = new TransactionBuilder(ctx.table);
    const now = new Date().toISOString();
    const updated = planUpdate(tx, { target, name: args.name, data: args.data, now, copies: copiesIn(ctx, scope) });
    await transactWrite(ctx.doc, tx.build());
    return updated;
  });
}

/**
 * A reorder at a position chosen by its caller, while the caller holds the parent (respace.ts):
 * no slot is read, the parent's hold is passed (`hold`, the instant it is held until) and
 * renewed to `renewed` in the same transaction. A node no longer under the parent is left as
 * it is.
 */
export interface Placing {
  position: string;
  hold: number;
  renewed: number;
}

export async function moveNode(ctx: EngineContext, args: MoveNodeArgs, placing?: Placing): Promise<TreeNode> {
  checkId(args.id);
  const parentId = args.newParentId == null ? null : checkId(args.newParentId, 'newParentId');
  if (args.before != null) checkId(args.before, 'before');
  if (args.after != null) checkId(args.after, 'after');
  type Started = { node: TreeNode; job?: JobRecord; lease?: Lease };
  const started = await replanning(async (): Promise<Started> => {
    const scope: ReadScope = {};
    const known = await readVisible(ctx, ids(args.id, parentId, args.before, args.after), scope);
    const open = scope.open ?? NO_OPEN_JOBS;
    const moving = live(known, args.id);
    checkVersion(moving, args.expectedVersion);
    if (parentId === args.id) throw new TreeError('CYCLE', `cannot move "${args.id}" under itself`);
    const chain = parentId === null ? [] : await ctx.strategy.readChain(ctx, live(known, parentId, 'new parent'));
    if (chain.some((c) => c.node.id === args.id)) {
      throw new TreeError('CYCLE', `cannot move "${args.id}" under its own descendant "${parentId}"`);
    }
    const oldPlace = placeOf(ctx.strategy, moving);
    const newParent = chain[chain.length - 1];
    if (!placing) refuseWhileRespacing(newParent, Date.now());
    const overlap =
      overlappingMove(open, args.id, settledPlace(ctx, scope, moving)) ??
      (newParent ? moveOf(open, newParent.node.id, settledPlace(ctx, scope, newParent)) : undefined);
    if (overlap) await waitForJob(ctx, overlap.id, `moving "${args.id}"`);
    if (placing && moving.node.parentId !== parentId) return { node: moving.node };
    const slot = placing
      ? { position: placing.position, neighbours: [], unchanged: false }
      : await findSlot(ctx, { parentId, placingId: args.id, before: args.before, after: args.after, known }, moving.node);
    if (slot.unchanged) return { node: moving.node };
    // Guards on the new parent's respacing: a respacing's own step passes its hold (a hold is
    // below any instant after it) and renews it.
    const guardParent = (into: TransactionBuilder) => {
      planNotRespacing(into, newParent, placing ? placing.hold + 1 : Date.now());
      if (placing) planRenewHold(into, newParent!, placing.hold, placing.renewed, 'respacing');
    };
    const oldParentId = moving.node.parentId;
    const oldParent =
      oldParentId === null
        ? null
        : (chain.find((c) => c.node.id === oldParentId) ??
          live(await readStored(ctx, [oldParentId]), oldParentId, 'parent'));
    const tx = new TransactionBuilder(ctx.table);
    const now = new Date().toISOString();
    const reorder = moving.node.parentId === parentId;
    const kept = keptFields(ctx.strategy);
    // A reorder leaves the node's place as it was, unless the strategy keeps sibling positions.
    const samePlace = reorder && !kept.lineage;
    const moved = planMove(tx, { moving, oldParent, chain, slot, now, copies: copiesIn(ctx, scope), copiesStay: samePlace });
    ctx.strategy.guardChain(tx, chain, Date.now());
    guardParent(tx);
    planOpenJobsUnchanged(tx, open.rev);
    const newPlace = chainPlace(chain, slot.position);
    if (samePlace) return { node: await commitMove(ctx, tx, moved, chain) };
    if (!kept.path) {
      let held = 0;
      await checkMoveDepth(ctx, moving, chain, (until) => {
        held = until;
        planRelease(tx, moving, until);
      });
      try {
        return { node: await commitMove(ctx, tx, moved, chain) };
      } catch (error) {
        if (held) await release(ctx, moving, held);
        throw error;
      }
    }
    await checkMoveDepth(ctx, moving, chain);
    const below = await readSubtreeWithin(ctx, moving, ctx.transactionItems - tx.size);
    // A concurrent move put the new (or old) parent under the moving node since its chain was
    // read: re-read everything (the chain will show the cycle, or the tree moved back).
    const parents = new Set([newParent?.node.id, oldParentId]);
    if (below?.some((level) => level.some((s) => parents.has(s.node.id)))) throw new Replan('a parent of the move lies below the moving node');
    if (below) {
      const levels = subtreePlaces(moving, oldPlace, below).map((p) => ({
        ...p,
        newPlace: rebased(p.place, oldPlace, newPlace),
        ...(p.stored === moving ? { moved } : {}),
      }));
      planProjectionMove(tx, ctx.strategy, levels);
      if (tx.size <= ctx.transactionItems) {
        Object.assign(moved, ctx.strategy.nodeFields(newPlace));
        return { node: await commitMove(ctx, tx, moved, chain) };
      }
    }
    // Too big for one transaction: the truth and the job record now, the projection by the job,
    // once the strategy has checked that the job can place every node of the subtree.
    await ctx.strategy.checkMoveJob?.(ctx, moving.node.id, oldPlace, newPlace);
    const truth = new TransactionBuilder(ctx.table);
    planMove(truth, { moving, oldParent, chain, slot, now, copies: copiesIn(ctx, scope), copiesStay: true });
    ctx.strategy.guardChain(truth, chain, Date.now());
    guardParent(truth);
    planMoveJobStarted(truth, oldPlace.path[0] ?? args.id);
    const job = newJob('MOVE', args.id, null, { from: [...oldPlace.path], to: [...newPlace.path], toLineage: [...newPlace.lineage] });
    const lease = startingLease(ctx, job.id);
    planJobStart(truth, job, lease, Date.now(), open.rev, ctx.tenant);
    await transactWrite(ctx.doc, truth.build());
    return { node: withPath(moved, [...newPlace.path]), job, lease };
  });
  const { node, job, lease } = started;
  if (job && lease) runStarted(ctx, job, lease);
  return node;
}

/** The node's path once the open moves are done ([] for a strategy that keeps none). */
export const settledPlace = (ctx: EngineContext, scope: ReadScope, stored: StoredNode): string[] =>
  settledPath(scope.open ?? NO_OPEN_JOBS, stored.node.id, [...placeOf(ctx.strategy, stored).path]);

const keepsPath = (ctx: EngineContext): boolean => keptFields(ctx.strategy).path;

/** The place of a node under `chain` (root first, parent last) at sibling position `position`. */
export const chainPlace = (chain: readonly StoredNode[], position: string): Place => ({
  path: chain.map((c) => c.node.id),
  lineage: [...chain.map((c) => c.node.position), position],
});

async function commitMove(ctx: EngineContext, tx: TransactionBuilder, moved: TreeNode, chain: StoredNode[]): Promise<TreeNode> {
  await transactWrite(ctx.doc, tx.build());
  return placed(moved, chain);
}

/**
 * The depth limit on a move to another parent, reading only what it needs: nothing when the
 * node goes no deeper than it is (the tree obeys the limit); otherwise whether its subtree
 * reaches the relative depth that would cross it (one read of the strategy's descendants, one
 * node wide: a Query under path and closure, a walk of the levels down to it under adjacency).
 *
 * With `held` (a strategy that guards no moved subtree), a move that goes deeper first holds
 * the moving node, so that no write adds a node below it between this read and the move's
 * commit; `held` adds the release to the move's transaction. A refused move releases at once.
 */
async function checkMoveDepth(
  ctx: EngineContext,
  moving: StoredNode,
  chain: StoredNode[],
  held?: (until: number) => void,
): Promise<void> {
  const newDepth = chain.length;
  checkDepth(ctx, newDepth);
  const oldDepth = keepsPath(ctx)
    ? placeOf(ctx.strategy, moving).path.length
    : (await ctx.strategy.readChain(ctx, moving)).length - 1;
  if (newDepth <= oldDepth) return;
  const until = held ? await hold(ctx, moving) : 0;
  try {
    const room = ctx.maxTreeDepth - newDepth;
    const reaches = ctx.strategy.reaches
      ? await ctx.strategy.reaches(ctx, moving.node, room + 1)
      : (await ctx.strategy.descendants(ctx, moving.node, { minDepth: room + 1, maxDepth: null }, { first: 1 })).edges.length > 0;
    if (reaches) checkDepth(ctx, ctx.maxTreeDepth + 1);
  } catch (error) {
    if (held) await release(ctx, moving, until);
    throw error;
  }
  held?.(until);
}

/** How long a hold lasts if its move never commits (its process died). */
const HOLD_MS = 5000;

async function hold(ctx: EngineContext, node: StoredNode): Promise<number> {
  const now = Date.now();
  const tx = new TransactionBuilder(ctx.table);
  planHold(tx, node, now, now + HOLD_MS);
  await transactWrite(ctx.doc, tx.build());
  return now + HOLD_MS;
}

async function release(ctx: EngineContext, node: StoredNode, until: number): Promise<void> {
  const tx = new TransactionBuilder(ctx.table);
  planRelease(tx, node, until);
  await transactWrite(ctx.doc, tx.build()).catch(() => {
    // Released already, or DynamoDB is away: the hold expires by itself.
  });
}

/** How long a structural write waits for an open job whose subtree it overlaps. */
export const OVERLAP_WAIT_MS = 3000;

/**
 * Refuses a create or a move under a parent whose children are being respaced (its hold runs
 * past `now`): the transaction's check (planNotRespacing) would refuse it on every re-plan.
 */
export function refuseWhileRespacing(parent: StoredNode | null | undefined, now: number): void {
  if (parent?.respacing !== undefined && parent.respacing >= now) {
    throw new TreeError(
      'CONFLICT',
      `the children of "${parent.node.id}" are being respaced (tree reindex --respace); nothing was applied: try again once it is done`,
    );
  }
}

/**
 * Waits for the job to finish, then makes the write re-plan (Replan); CONFLICT, with
 * nothing applied, when it is still running after OVERLAP_WAIT_MS.
 */
export async function waitForJob(ctx: EngineContext, jobId: string, doing: string): Promise<never> {
  const job = await pollJob(ctx, jobId, OVERLAP_WAIT_MS, (found) => found?.status !== 'RUNNING');
  if (job !== 'timeout') throw new Replan(`job ${jobId} is done`);
  throw new TreeError(
    'CONFLICT',
    `${doing} overlaps the subtree that job ${jobId} is moving, still running after ${OVERLAP_WAIT_MS / 1000} s; nothing was applied: try again once the job is done`,
    { jobId },
  );
}

/** Reads a job's record every 100 ms until `done` holds of it (and answers it), or `ms` passed. */
async function pollJob(
  ctx: EngineContext,
  jobId: string,
  ms: number,
  done: (job: JobRecord | undefined) => boolean,
): Promise<JobRecord | undefined | 'timeout'> {
  const deadline = Date.now() + ms;
  for (;;) {
    const item = (await batchGetItems(ctx.doc, ctx.table, [jobKey(jobId)])).values().next().value;
    const job = item ? jobFromItem(item) : undefined;
    if (done(job)) return job;
    if (Date.now() > deadline) return 'timeout';
    await sleep(100);
  }
}

/**
 * Deletes a node and its subtree: one transaction when it fits; otherwise one transaction
 * detaches the subtree (from then on no read returns any of it) and records a job, which this
 * process then runs under the job's lease, outside the re-planning loop: once the detach has
 * committed the delete is applied, whatever happens to the job (any live process finishes it).
 * The subtree is read only as far as it may fit one transaction; a job counts it while it marks
 * it (the record's `total`), and the answer's deletedCount is that count.
 */
export async function deleteNode(ctx: EngineContext, args: DeleteNodeArgs): Promise<DeleteResult> {
  checkId(args.id);
  type Started = DeleteResult | { job: JobRecord; lease: Lease };
  const started = await replanning(async (): Promise<Started> => {
    const scope: ReadScope = {};
    const root = live(await readVisible(ctx, [args.id], scope), args.id);
    checkVersion(root, args.expectedVersion);
    const overlap = overlappingMove(scope.open ?? NO_OPEN_JOBS, args.id, settledPlace(ctx, scope, root));
    if (overlap) await waitForJob(ctx, overlap.id, `deleting "${args.id}"`);
    const parentId = root.node.parentId;
    // Each node deleted takes at least two items (its node and its edge).
    const [parent, levels] = await Promise.all([
      parentId === null ? null : readStored(ctx, [parentId]).then((m) => m.get(parentId) ?? null),
      readSubtreeWithin(ctx, root, Math.floor(ctx.transactionItems / 2)),
    ]);
    if (parentId !== null && !parent) throw notFound('parent', parentId);
    if (levels) {
      const tx = new TransactionBuilder(ctx.table);
      planDeleteSubtree(tx, { root, descendants: levels.flat(), parent, copies: copiesIn(ctx, scope) });
      planProjectionDelete(tx, ctx.strategy, subtreePlaces(root, placeOf(ctx.strategy, root), levels));
      planOpenJobsUnchanged(tx, (scope.open ?? NO_OPEN_JOBS).rev);
      if (tx.size <= ctx.transactionItems) {
        await transactWrite(ctx.doc, tx.build());
        return { deletedCount: levels.flat().length + 1 };
      }
    }
    const job = newJob('DELETE', root.node.id, null);
    const lease = startingLease(ctx, job.id);
    const detach = new TransactionBuilder(ctx.table);
    planDetachForDelete(detach, { root, parent, jobId: job.id, copies: copiesIn(ctx, scope) });
    planJobStart(detach, job, lease, Date.now(), scope.open?.rev, ctx.tenant);
    await transactWrite(ctx.doc, detach.build());
    return { job, lease };
  });
  if (!('lease' in started)) return started;
  // Run here, so that the answer counts the nodes deleted; or counted by the worker.
  if (ctx.runsJobs) await runLeased(ctx, started.job, started.lease);
  const counted = await countedJob(ctx, started.job.id);
  return { deletedCount: counted.total!, job: publicJob(counted) };
}

/**
 * A delete job's record once it has counted its subtree: at once when this process ran it to
 * its end; otherwise (the runner stopped) when the process that takes it over has counted it.
 * The delete is applied either way; past the wait, SERVICE_UNAVAILABLE says so.
 */
async function countedJob(ctx: EngineContext, jobId: string): Promise<JobRecord> {
  const job = await pollJob(ctx, jobId, Math.max(OVERLAP_WAIT_MS, 3 * ctx.jobLeaseMs), (found) => found?.total != null);
  if (job !== 'timeout' && job) return job;
  throw new TreeError(
    'SERVICE_UNAVAILABLE',
    `the subtree is detached and job ${jobId} is deleting it, but its size is not counted yet; query job(id: "${jobId}") for its progress`,
    { jobId },
  );
}
