import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { transactWrite } from '../../../dynamodb/transactWrite.js';
import { ConditionFailed } from '../../../dynamodb/conditionFailed.js';
import { TreeError } from '../../../errors.js';
import { walkLimit, type StoredNode } from '../../strategy.js';
import type { EngineContext } from '../core/engineContext.js';
import { planClaimNode, planReleaseNode } from '../core/claims.js';
import { readChildren, readStored } from '../core/reads.js';
import { Replan } from '../core/replan.js';
import { commitChunk, LeaseLost, passWhileChanging } from './commitChunk.js';
import {
  planGiveUpLease,
  planJobForget,
  planJobStart,
  type Announced,
  type JobRecord,
  type Lease,
} from './jobRecord.js';

/**
 * The claims of a job on a subtree (core/claims.ts): taken level by level from its root, and
 * given back deepest first. Every transaction is fenced by the job's lease (commitChunk).
 *
 * A move or delete job too big for one transaction starts claiming (`startClaiming`): one
 * transaction writes its record and its entry, both `claiming`, and claims the subtree's root;
 * the rest of the subtree follows. The caller then applies the change in the job's accepting
 * transaction (jobRecord.ts, planJobAccept), or gives the job up (`forgetClaiming`) when that
 * fails or the change is refused. A process that takes over a job still claiming gives it up
 * (`abandonClaiming`): its starter is gone, and nothing of its change was applied.
 */

/**
 * Starts job `job` claiming the subtree of `root` (as read), and claims it whole; answers its
 * levels, root first. A failure gives the job up; so does meeting another job's claim
 * (ClaimedByOther: the write then waits for that job, writes/overlapWait.ts).
 */
export async function startClaiming(
  ctx: EngineContext,
  claim: { job: JobRecord; lease: Lease; root: StoredNode; announced: Announced },
): Promise<StoredNode[][]> {
  const { job, lease, root } = claim;
  const start = new TransactionBuilder(ctx.table);
  planJobStart(start, { ...job, claiming: true }, lease, Date.now(), claim.announced, { ...job, claiming: true });
  planClaimNode(start, root, job.id);
  await transactWrite(ctx.doc, start.build());
  try {
    return await claimSubtree(ctx, lease, { ...root, claim: job.id });
  } catch (error) {
    await forgetClaiming(ctx, lease, root.node.id);
    throw error instanceof LeaseLost ? new Replan(`job ${job.id} was given up by another process`) : error;
  }
}

/**
 * Gives up a claiming job that this process started: its claims released, its record and entry
 * deleted. When that fails, the lease is given up, so that a sweep gives the job up instead.
 */
export async function forgetClaiming(ctx: EngineContext, lease: Lease, rootId: string): Promise<void> {
  try {
    await releaseSubtree(ctx, lease, rootId);
    const tx = new TransactionBuilder(ctx.table);
    planJobForget(tx, lease);
    await transactWrite(ctx.doc, tx.build());
  } catch {
    const tx = new TransactionBuilder(ctx.table);
    planGiveUpLease(tx, lease);
    await transactWrite(ctx.doc, tx.build()).catch(() => {
      // Lost already, or DynamoDB is away: the lease expires by itself.
    });
  }
}

/** A job taken over while it was claiming: its claims released, and it ends FAILED. */
export async function abandonClaiming(ctx: EngineContext, job: JobRecord, lease: Lease): Promise<void> {
  if (job.nodeId !== null) await releaseSubtree(ctx, lease, job.nodeId);
  await commitChunk(ctx, new TransactionBuilder(ctx.table), lease, { finish: 'FAILED' });
}

/** The subtree meets another job's claim: the job that claimed first goes first. */
export class ClaimedByOther extends Error {
  constructor(readonly jobId: string) {
    super(`the subtree is claimed by job ${jobId}`);
    this.name = 'ClaimedByOther';
  }
}

/** Attempts at claiming one level of a subtree whose nodes keep moving, before CONFLICT. */
const ATTEMPTS = 6;

/**
 * Claims the subtree of `root` (as read) for the job: the root, then each level's children once
 * the level is claimed, so that the claimed set closes over the subtree: a node's claim holds
 * only if nothing was written to it since it was read (claims.ts, planClaimNode), so the children
 * it had when claimed are those the next level reads (a child added before the claim fails the
 * claim, and the level is read again; one added after fails on the claim).
 * Answers the subtree's levels, root first. Idempotent: nodes that the job claimed already cost
 * a read and no write, so a claimed subtree is walked again this way at no write.
 */
export async function claimSubtree(ctx: EngineContext, lease: Lease, root: StoredNode): Promise<StoredNode[][]> {
  await claimLevel(ctx, lease, [root]);
  const levels: StoredNode[][] = [[root]];
  for (let frontier = [root]; frontier.length > 0;) {
    if (levels.length > walkLimit(ctx)) throw new Error(`the subtree of ${root.node.id} is deeper than allowed`);
    frontier = await claimChildren(ctx, lease, frontier);
    if (frontier.length > 0) levels.push(frontier);
  }
  return levels;
}

/** Claims the children of the claimed `parents`; answers them (those claimed already included). */
async function claimChildren(ctx: EngineContext, lease: Lease, parents: StoredNode[]): Promise<StoredNode[]> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const children = await existingChildren(ctx, parents);
    try {
      await claimLevel(ctx, lease, children);
      return children;
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
    }
  }
  throw new TreeError('CONFLICT', `the subtree of job ${lease.jobId} kept changing while it was claimed`);
}

/** Claims the nodes not claimed by the job yet; ClaimedByOther when another job has one. */
async function claimLevel(ctx: EngineContext, lease: Lease, nodes: StoredNode[]): Promise<void> {
  const other = nodes.find((s) => s.claim !== undefined && s.claim !== lease.jobId);
  if (other) throw new ClaimedByOther(other.claim!);
  const unclaimed = nodes.filter((s) => s.claim !== lease.jobId);
  const chunk = claimsPerTransaction(ctx);
  for (let i = 0; i < unclaimed.length; i += chunk) {
    const tx = new TransactionBuilder(ctx.table);
    for (const stored of unclaimed.slice(i, i + chunk)) planClaimNode(tx, stored, lease.jobId);
    await commitChunk(ctx, tx, lease);
  }
}

/**
 * The nodes still under `parents` (their node items, which carry the claims), read through the
 * parents' edges: a child that moved away between the two reads is left out.
 */
export async function existingChildren(ctx: EngineContext, parents: StoredNode[]): Promise<StoredNode[]> {
  const edges = (
    await Promise.all(parents.filter((p) => p.node.childCount > 0).map((p) => readChildren(ctx, p.node.id)))
  ).flat();
  const stored = await readStored(
    ctx,
    edges.map((e) => e.node.id),
  );
  return edges.flatMap((edge) => {
    const child = stored.get(edge.node.id);
    return child && child.node.parentId === edge.node.parentId ? [child] : [];
  });
}

/**
 * Gives back the job's claims on the subtree of `rootId`, deepest first, so that a run stopped
 * half-way finds the rest again from the root, which goes last.
 */
export async function releaseSubtree(ctx: EngineContext, lease: Lease, rootId: string): Promise<void> {
  await passWhileChanging(lease.jobId, async () => {
    const root = (await readStored(ctx, [rootId])).get(rootId);
    if (root?.claim !== lease.jobId) return;
    const levels: StoredNode[][] = [[root]];
    for (let frontier = [root]; frontier.length > 0 && levels.length <= walkLimit(ctx);) {
      frontier = (await existingChildren(ctx, frontier)).filter((s) => s.claim === lease.jobId);
      if (frontier.length > 0) levels.push(frontier);
    }
    const chunk = claimsPerTransaction(ctx);
    for (const level of levels.reverse()) {
      for (let i = 0; i < level.length; i += chunk) {
        const tx = new TransactionBuilder(ctx.table);
        for (const stored of level.slice(i, i + chunk)) planReleaseNode(tx, stored.node.id, lease.jobId);
        await commitChunk(ctx, tx, lease);
      }
    }
  });
}

/** The nodes one transaction of a job claims or releases: all of its actions but the fence on the job record. */
const claimsPerTransaction = (ctx: Pick<EngineContext, 'transactionItems'>): number => ctx.transactionItems - 1;
