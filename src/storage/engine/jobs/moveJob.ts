import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { walkLimit, type MovedNode, type Place, type StoredNode } from '../../strategy.js';
import { commitChunk, jobChange, passWhileChanging } from './commitChunk.js';
import type { ChangeDraft } from '../changes/changeRecord.js';
import type { EngineContext } from '../core/engineContext.js';
import type { JobRecord, Lease } from './jobRecord.js';
import {
  childPlace,
  keyOfIn,
  placeOf,
  planKeepsPlace,
  planPlaceFields,
  planProjectionRewrite,
  projectionSteps,
} from '../core/projectionPlans.js';
import { readStored } from '../core/reads.js';
import { existingChildren } from './claimSubtree.js';
import { planReleaseNode } from '../core/claims.js';

/**
 * Rewrites the projection of a subtree whose move committed the truth (the moved node's parent,
 * edges and counts) with the job record: every node's kept place and projection items, from the
 * moved node down, level by level. Run under the job's lease by the process that started it, or
 * by any process that took it over; every transaction is fenced by the lease (commitChunk).
 *
 * The job claimed the subtree before it was accepted (claims.ts): each node's rewrite releases
 * its claim, in the same transaction, and is conditioned on its kept path being the one read,
 * so it is idempotent (a node already at its new place is skipped) and refused for a node that
 * changed meanwhile (the walk then starts again). A level is rewritten before its children are
 * read: a child added under a node once it is released took the new path from it, and is read.
 * Until the job is done, reads translate kept paths through the job's entry (openJobs.ts).
 */

/** A node of the moved subtree, as read, with the place the move gives it. */
interface MovingNode {
  stored: StoredNode;
  newPlace: Place;
}

export async function runMoveJob(ctx: EngineContext, job: JobRecord, lease: Lease): Promise<void> {
  // A node of the subtree changed while it was read: walk again (done nodes are skipped).
  await passWhileChanging(job.id, () => rewriteSubtree(ctx, job, lease));
}

async function rewriteSubtree(ctx: EngineContext, job: JobRecord, lease: Lease): Promise<void> {
  const rootId = job.nodeId;
  if (rootId === null || job.to === undefined) throw new Error(`move job ${job.id} has no node or destination`);
  const to: Place = { path: job.to, lineage: job.toLineage ?? [], keys: job.toKeys ?? job.to.map(() => '') };
  const root = (await readStored(ctx, [rootId])).get(rootId);
  let level: MovingNode[] = root && root.deleting === undefined ? [{ stored: root, newPlace: to }] : [];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > walkLimit(ctx)) throw new Error(`subtree of ${rootId} is deeper than the depth limit allows`);
    await rewriteLevel(ctx, level, lease, jobChange(job, 'JOB_PROGRESS'));
    level = await nextLevel(ctx, level);
  }
  const change = jobChange(job, 'JOB_DONE');
  await commitChunk(ctx, new TransactionBuilder(ctx.table), lease, { finish: 'DONE', ...(change ? { change } : {}) });
}

/** Commits the level's rewrites, each transaction filled with as many nodes as it holds. */
async function rewriteLevel(
  ctx: EngineContext,
  level: MovingNode[],
  lease: Lease,
  change: ChangeDraft | undefined,
): Promise<void> {
  const progress = (done: number) => ({ done, ...(change ? { change } : {}) });
  // One action is the fence on the job record, and one the chunk's change record.
  const chunk = ctx.transactionItems - (change ? 2 : 1);
  let tx = new TransactionBuilder(ctx.table);
  let nodes = 0;
  const release = (tx: TransactionBuilder, stored: StoredNode) => {
    if (stored.claim === lease.jobId) planReleaseNode(tx, stored.node.id, lease.jobId);
  };
  for (const { stored, newPlace } of level) {
    const place = placeOf(ctx.strategy, stored);
    if (samePlace(place, newPlace) && stored.claim !== lease.jobId) continue;
    const moved: MovedNode[] = [{ stored, place, newPlace }];
    const alone = new TransactionBuilder(ctx.table);
    planProjectionRewrite(alone, ctx.strategy, moved);
    release(alone, stored);
    if (nodes > 0 && !tx.holds(alone, chunk)) {
      await commitChunk(ctx, tx, lease, progress(nodes));
      tx = new TransactionBuilder(ctx.table);
      nodes = 0;
    }
    if (alone.size > chunk) {
      await rewriteInSlices(ctx, moved[0]!, lease);
      continue;
    }
    planProjectionRewrite(tx, ctx.strategy, moved);
    release(tx, stored);
    nodes++;
  }
  if (nodes > 0) await commitChunk(ctx, tx, lease, progress(nodes));
}

/**
 * A node whose rewrite alone exceeds a transaction: its item writes in slices, each on the
 * condition that the node still keeps its old place, then its place fields and its release.
 */
async function rewriteInSlices(ctx: EngineContext, moved: MovedNode, lease: Lease): Promise<void> {
  const steps = projectionSteps(ctx.strategy, moved);
  const slice = ctx.transactionItems - 2; // the fence, and the check on the node
  for (let i = 0; i < steps.length; i += slice) {
    const tx = new TransactionBuilder(ctx.table);
    planKeepsPlace(tx, ctx.strategy, moved);
    for (const step of steps.slice(i, i + slice)) step(tx);
    await commitChunk(ctx, tx, lease);
  }
  const last = new TransactionBuilder(ctx.table);
  planPlaceFields(last, ctx.strategy, moved);
  if (moved.stored.claim === lease.jobId) planReleaseNode(last, moved.stored.node.id, lease.jobId);
  await commitChunk(ctx, last, lease, { done: 1 });
}

/** The existing children of the level's nodes (node items: they carry the kept path), placed. */
async function nextLevel(ctx: EngineContext, level: MovingNode[]): Promise<MovingNode[]> {
  const placeOfParent = new Map(level.map((p) => [p.stored.node.id, p.newPlace]));
  const keyOf = keyOfIn(ctx);
  const children = await existingChildren(
    ctx,
    level.map((p) => p.stored),
  );
  return children.flatMap((child) => {
    const parentId = child.node.parentId!;
    // Being deleted: its delete job owns it.
    if (child.deleting !== undefined) return [];
    return [
      {
        stored: child,
        newPlace: childPlace(placeOfParent.get(parentId)!, parentId, child.node.position, keyOf(child.node)),
      },
    ];
  });
}

const same = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((id, i) => id === b[i]);

/** A place the strategy does not keep compares equal: the node then needs no rewrite. */
const samePlace = (a: Place, b: Place): boolean =>
  same(a.path, b.path) && same(a.lineage, b.lineage) && same(a.keys, b.keys);
