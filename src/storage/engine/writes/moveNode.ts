import type { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { TreeError } from '../../../errors.js';
import type { Place, StoredNode } from '../../strategy.js';
import type { MoveNodeArgs, TreeNode } from '../../treeStore.js';
import { checkId } from '../../validation.js';
import { placed } from './createNode.js';
import type { EngineContext, GrantGuard } from '../core/engineContext.js';
import { checkDepth, readPlace, type GuardedPlace, type RespacingHold } from './guard/guardedPlace.js';
import { checkChildType } from './typedNodes.js';
import { checkParent, checkVersion, expectedParent, readNodeTree, type NodeTree } from './guard/guardedNode.js';
import { commitWrite, type GuardedTransaction } from '../guard/guardedTransaction.js';
import { releaseHold } from '../guard/holds.js';
import { changeTime } from '../core/changeTime.js';
import { existing, withPath } from '../core/items.js';
import { newJob, planJobAccept, type JobRecord, type Lease } from '../jobs/jobRecord.js';
import { acceptingLease, newLease, runStarted } from '../jobs/jobRunner.js';
import { announceJob } from '../jobs/announceJob.js';
import { forgetClaiming, startClaiming } from '../jobs/claimSubtree.js';
import { planNodeUnclaimed } from '../core/claims.js';
import { checkMoveDepth } from './moveDepth.js';
import { draft, holdsRecords } from '../changes/recordChanges.js';
import type { ChangeDraft, ChangeFacts } from '../changes/changeRecord.js';
import { keptFields, keyOfIn, placeOf, planProjectionMove, rebased, subtreePlaces } from '../core/projectionPlans.js';
import { readStored, readSubtreeWithin } from '../core/reads.js';
import { Replan, replanning } from '../core/replan.js';
import { findSlot } from './slot.js';
import { claimingOrWaiting, committedUnlessClaimed } from './guard/overlapWait.js';
import { planMove, planMovedCopies, planPathKeys, planReleaseHold, type Slot } from '../core/writePlans.js';

/**
 * moveNode (reparent, and a reorder among siblings): reads its place (guardedPlace.ts) and the
 * moving node, then commits one of four outcomes, each in one transaction with the truth's plan
 * (planMove) built once and every guard of the place:
 *
 * - **reorder in place**: same parent, and the strategy keeps no sibling positions: the node's
 *   place and projection stay, its copies get its new position;
 * - **held move**: a strategy that keeps no path (nothing below the node to rewrite) holds the
 *   node while it checks the subtree's height, when the move goes deeper (moveDepth.ts);
 * - **one-transaction move**: the truth and the rewritten projection of the whole subtree;
 * - **move job**: a subtree whose projection does not fit one transaction: the job claims the
 *   subtree (claims.ts), then commits the truth as it accepts the move; the projection is
 *   rewritten by the job (moveJob.ts), which this process starts.
 *
 * The node moved, and under a strategy that keeps paths every node of a subtree moved in one
 * transaction, is claimed by no job (claims.ts): a claimed subtree neither moves nor loses a node.
 *
 * A respacing moves a child to a position it chose, while it holds the parent: `placeChild`.
 */
export async function moveNode(ctx: EngineContext, args: MoveNodeArgs & NodeCheck): Promise<TreeNode> {
  checkId(args.id);
  const parentId = args.newParentId == null ? null : checkId(args.newParentId, 'newParentId');
  if (args.before != null) checkId(args.before, 'before');
  if (args.after != null) checkId(args.after, 'after');
  expectedParent(args.expectedParentId); // its form, before anything is read
  return answered(ctx, await replanning(() => planAndCommit(ctx, { ...args, newParentId: parentId })));
}

/**
 * A respacing's step (respace.ts): moves child `id` of `parentId` to `position`, passing the
 * respacing's hold on the parent and renewing it. A child no longer under the parent is left as
 * it is (its answer says where it is).
 */
export async function placeChild(
  ctx: EngineContext,
  step: { id: string; parentId: string; position: string; hold: RespacingHold },
): Promise<TreeNode> {
  const args = { id: step.id, newParentId: step.parentId };
  const fixed = { position: step.position, hold: step.hold };
  return answered(ctx, await replanning(() => planAndCommit(ctx, args, fixed)));
}

/** A caller's check on the moving node as each attempt reads it (an undo's: the same node); its refusal stands. */
type NodeCheck = { check?: (moving: StoredNode) => void };

/** What an attempt committed: the moved node, and the job it started when it started one. */
type Moved = { node: TreeNode; job?: JobRecord; lease?: Lease };

/** Starts the job an attempt recorded (outside the re-planning loop), and answers the node. */
function answered(ctx: EngineContext, moved: Moved): TreeNode {
  if (moved.job && moved.lease) runStarted(ctx, moved.job, moved.lease);
  return moved.node;
}

/** A move as read and planned: its place, the node, where it goes, and its truth's plan. */
interface PlannedMove {
  place: GuardedPlace;
  moving: StoredNode;
  /** Its ancestors, root first, where the strategy keeps no path and it leaves its parent. */
  oldAncestors?: string[];
  slot: Slot;
  oldPlace: Place;
  newPlace: Place;
  /** The transaction of the truth (and of every guard but the moving node's claim), built once. */
  truth: GuardedTransaction;
  /** The moved node's fields after the move. */
  moved: TreeNode;
  /** Where the node was: its tree and ancestors (readNodeTree). */
  from: NodeTree;
}

async function planAndCommit(
  ctx: EngineContext,
  args: MoveNodeArgs & NodeCheck,
  fixed?: { position: string; hold: RespacingHold },
): Promise<Moved> {
  const planned = await planMoveOf(ctx, args, fixed);
  if ('unchanged' in planned) return { node: planned.unchanged };
  const kept = keptFields(ctx.strategy);
  const reorder = planned.moving.node.parentId === planned.moved.parentId;
  if (reorder && !kept.lineage) return { node: await reorderInPlace(ctx, planned) };
  if (!kept.path) return { node: await moveHeld(ctx, planned) };
  return moveWithProjection(ctx, planned);
}

/** Reads the move and plans its truth; or the node as it is, when the move changes nothing. */
async function planMoveOf(
  ctx: EngineContext,
  args: MoveNodeArgs & NodeCheck,
  fixed?: { position: string; hold: RespacingHold },
): Promise<PlannedMove | { unchanged: TreeNode }> {
  const parentId = args.newParentId ?? null;
  const place = await readPlace(ctx, {
    parentId,
    parentLabel: 'new parent',
    alsoRead: [args.id, args.before, args.after],
    movingId: args.id,
    doing: `moving "${args.id}"`,
    respacing: fixed?.hold,
    check: (known) => {
      checkVersion(existing(known, args.id), args.expectedVersion);
      checkParent(existing(known, args.id), expectedParent(args.expectedParentId));
      args.check?.(existing(known, args.id));
      if (parentId === args.id) throw new TreeError('CYCLE', `cannot move "${args.id}" under itself`);
    },
  });
  const moving = existing(place.known, args.id);
  if (place.chain.some((c) => c.node.id === args.id)) {
    throw new TreeError('CYCLE', `cannot move "${args.id}" under its own descendant "${parentId}"`);
  }
  if (fixed && moving.node.parentId !== parentId) return { unchanged: moving.node };
  if (moving.node.parentId !== parentId) checkChildType(ctx, place.parent, moving.node.type);
  const slot = fixed
    ? { position: fixed.position, neighbours: [], unchanged: false }
    : await findSlot(
        ctx,
        { parentId, placingId: args.id, before: args.before, after: args.after, known: place.known },
        moving.node,
      );
  if (slot.unchanged) return { unchanged: moving.node };
  const from = await readNodeTree(ctx, moving, place.open);
  const leaving = await leavingGrant(ctx, from, place, moving);
  const { oldParent, oldAncestors } = await readOldPlace(ctx, moving, place, parentId, from);
  let moved!: TreeNode;
  const truth = place.transaction((tx) => {
    const now = changeTime(moving.node);
    moved = planMove(tx, { moving, oldParent, chain: [...place.chain], slot, now, copies: place.copies });
    planPathKeys(tx, ctx, moving.node, moved);
    from.guard(tx);
    leaving?.(tx);
  });
  return {
    place,
    moving,
    from,
    oldAncestors,
    slot,
    oldPlace: placeOf(ctx.strategy, moving),
    newPlace: place.placeAt(slot.position, keyOfIn(ctx)(moving.node)),
    truth,
    moved,
  };
}

/**
 * For a caller whose access is checked, moving a node to another parent: the guard of the grant
 * that lets it take the node out of where it is (CallerAccess.requireMove); FORBIDDEN without one.
 */
async function leavingGrant(
  ctx: EngineContext,
  from: NodeTree,
  place: GuardedPlace,
  moving: StoredNode,
): Promise<GrantGuard | undefined> {
  const { id, parentId } = moving.node;
  if (!ctx.access || parentId === (place.parent?.node.id ?? null)) return undefined;
  return ctx.access.requireMove(
    [...from.path, id],
    place.chain.map((c) => c.node.id),
    id,
  );
}

/**
 * What a move reads of the place the node leaves: its parent (found in the new chain when it is
 * there), and, under a strategy that keeps no path, its ancestors when it leaves its parent, for
 * its depth (moveDepth.ts), as readNodeTree read them.
 */
async function readOldPlace(
  ctx: EngineContext,
  moving: StoredNode,
  place: GuardedPlace,
  newParentId: string | null,
  from: NodeTree,
): Promise<{ oldParent: StoredNode | null; oldAncestors?: string[] }> {
  const oldParentId = moving.node.parentId;
  const oldParent =
    oldParentId === null
      ? null
      : (place.chain.find((c) => c.node.id === oldParentId) ??
        existing(await readStored(ctx, [oldParentId]), oldParentId, 'parent'));
  if (keptFields(ctx.strategy).path || oldParentId === newParentId) return { oldParent };
  return { oldParent, oldAncestors: from.path };
}

/**
 * The records of a move: in the tree the node left and, when it went to another one, in that
 * tree too (the same change, each naming the other). `count`: the subtree's size, when read.
 */
function moveChanges(move: PlannedMove, count?: number): ChangeDraft[] {
  const { moving, moved, place, from } = move;
  const facts: ChangeFacts = {
    kind: 'MOVED',
    nodeId: moving.node.id,
    node: moved,
    prior: moving.node,
    from: { parentId: moving.node.parentId, path: from.path },
    to: { parentId: moved.parentId, path: place.chain.map((c) => c.node.id) },
    ...(count === undefined ? {} : { count }),
  };
  const toRoot = place.chain[0]?.node.id ?? moving.node.id;
  return toRoot === from.rootId ? [draft(from.rootId, facts)] : [draft(from.rootId, facts), draft(toRoot, facts)];
}

/** Commits a move's transaction with its records (recordChanges.ts). */
const commitMove = (ctx: EngineContext, move: PlannedMove, tx: GuardedTransaction, count?: number) =>
  commitWrite(ctx, tx, { changes: moveChanges(move, count), slot: move.slot });

/** Same parent, same place: the truth, and the moved node's copies where they are. */
async function reorderInPlace(ctx: EngineContext, move: PlannedMove): Promise<TreeNode> {
  const tx = move.truth.extended((plan) => {
    planMovedCopies(plan, move.moving, move.moved, move.place.copies);
    planNodeUnclaimed(plan, [move.moving]);
  });
  await commitMove(ctx, move, tx);
  return answer(move);
}

/** A strategy that keeps no place: the truth, and the release of the hold that the depth check took. */
async function moveHeld(ctx: EngineContext, move: PlannedMove): Promise<TreeNode> {
  const held = await checkMoveDepth(ctx, move.moving, move.place.chain, {
    hold: true,
    oldAncestors: move.oldAncestors,
  });
  const tx = move.truth.extended((plan) => {
    if (held) planReleaseHold(plan, move.moving, held);
    planNodeUnclaimed(plan, [move.moving]);
  });
  try {
    await commitMove(ctx, move, tx);
  } catch (error) {
    if (held) await releaseHold(ctx, move.moving, held);
    throw error;
  }
  return answer(move);
}

/** The truth and the subtree's rewritten projection in one transaction, or else a move job. */
async function moveWithProjection(ctx: EngineContext, move: PlannedMove): Promise<Moved> {
  await checkMoveDepth(ctx, move.moving, move.place.chain, { hold: false });
  const { moving, oldPlace, newPlace, place } = move;
  const below = await readSubtreeWithin(ctx, moving, ctx.transactionItems - move.truth.size);
  // A concurrent move put the new (or old) parent under the moving node since its chain was
  // read: read everything again (the chain will show the cycle, or the tree moved back).
  const parents = new Set([place.parent?.node.id, moving.node.parentId]);
  if (below?.some((level) => level.some((s) => parents.has(s.node.id))))
    throw new Replan('a parent of the move lies below the moving node');
  if (below) {
    const levels = subtreePlaces(moving, oldPlace, below, keyOfIn(ctx)).map((p) => ({
      ...p,
      newPlace: rebased(p.place, oldPlace, newPlace),
      ...(p.stored === moving ? { moved: move.moved } : {}),
    }));
    const tx = move.truth.extended((plan) => {
      planProjectionMove(plan, ctx.strategy, levels);
      planNodeUnclaimed(
        plan,
        levels.map((l) => l.stored),
      );
    });
    // With its records in the change logs.
    if (holdsRecords(ctx, tx, moveChanges(move))) {
      Object.assign(move.moved, ctx.strategy.nodeFields(newPlace));
      const doing = `moving "${moving.node.id}"`;
      const count = below.flat().length + 1;
      await committedUnlessClaimed(ctx, below.flat(), doing, () => commitMove(ctx, move, tx, count));
      return { node: answer(move) };
    }
  }
  return startMoveJob(ctx, move);
}

/**
 * Too big for one transaction, once the strategy has checked that a job can place every node of
 * the subtree: the job claims the subtree (claims.ts), then its accepting transaction commits
 * the truth, checked again against the claimed subtree's height; the job rewrites the projection.
 */
async function startMoveJob(ctx: EngineContext, move: PlannedMove): Promise<Moved> {
  const { moving, oldPlace, newPlace, place } = move;
  await ctx.strategy.checkMoveJob?.(ctx, moving.node.id, oldPlace, newPlace);
  const job = newJob('MOVE', moving.node.id, null, {
    from: [...oldPlace.path],
    to: [...newPlace.path],
    toLineage: [...newPlace.lineage],
    toKeys: [...newPlace.keys],
  });
  const lease = newLease(ctx, job.id);
  const announced = await announceJob(ctx, place.open);
  const doing = `moving "${moving.node.id}"`;
  const levels = await claimingOrWaiting(ctx, startClaiming(ctx, { job, lease, root: moving, announced }), doing);
  try {
    // Closed by the claims: no node can be added below any more.
    checkDepth(ctx, newPlace.path.length + levels.length - 1);
    const tx = move.truth.extended((plan: TransactionBuilder) => {
      planMovedCopies(plan, moving, move.moved, place.copies);
      planNodeUnclaimed(plan, [moving], job.id);
      planJobAccept(plan, acceptingLease(ctx, lease), Date.now(), job);
    });
    await commitMove(ctx, move, tx, levels.flat().length);
  } catch (error) {
    await forgetClaiming(ctx, lease, moving.node.id);
    throw error;
  }
  return { node: withPath(move.moved, [...newPlace.path]), job, lease };
}

/** The moved node as the caller gets it. */
const answer = (move: PlannedMove): TreeNode =>
  placed(move.moved, move.place.chain.length, move.place.chain[0]?.node.id);
