import type { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { commitChunk } from '../jobs/commitChunk.js';
import type { EngineContext } from '../core/engineContext.js';
import type { GuardedPlace } from './guard/guardedPlace.js';
import { commitInChunks } from '../jobs/importJob.js';
import type { JobRecord, Lease } from '../jobs/jobRecord.js';
import type { NewNode } from './newNodes.js';
import { planEntryJoin } from '../core/openJobs.js';
import { projectionItems } from '../core/projectionPlans.js';
import { planJoin, planPathKeys, planPendingNode } from '../core/writePlans.js';
import type { StoredNode } from '../../strategy.js';
import { draft } from '../changes/recordChanges.js';
import type { ChangeDraft } from '../changes/changeRecord.js';

/**
 * The first two steps of an IMPORT job (jobs/importJob.ts describes all three), which only the
 * process that started it can take: only it has the nodes' names and data. The job is given up
 * by any process if it stops before the join.
 */

/**
 * A createNodes made by another write, of one subtree (its list's one top node): a copy's, a
 * restore's. Of any size; its change is recorded as that write's; its top node goes where
 * before/after say (default: last); `planAlso` joins its final transaction.
 */
export interface CreatedAs {
  kind: 'COPIED' | 'RESTORED';
  before?: string | null;
  after?: string | null;
  planAlso?: (tx: TransactionBuilder) => void;
}

/** What the process that starts an import knows: the plan of its nodes and of the join. */
export interface ImportPlan {
  job: JobRecord;
  lease: Lease;
  /** Parents first. */
  nodes: NewNode[];
  /** Where the nodes go, as read before the job started: the join is committed with its guards. */
  place: GuardedPlace;
  /** Whether the nodes have projection items to write once they joined the tree. */
  projected: boolean;
  /** A copy's or a restore's: its record, and what joins the join's transaction. */
  as?: CreatedAs;
}

/**
 * Step 1: the nodes, marked, and what of their items no read can reach yet. The last top node
 * first, alone: from then on a create placed last among the parent's children goes after all
 * of them (its slot is read from the edges, marked ones included), as if after the import.
 * Below a parent, nodes whose projection step 3 writes are claimed by the job (core/claims.ts)
 * until it is written: no write moves, deletes or adds below one of them meanwhile.
 */
export async function writePending(ctx: EngineContext, plan: ImportPlan): Promise<void> {
  const roots = plan.place.parent === null;
  const claimed = plan.projected && !roots;
  const batches: Array<(tx: TransactionBuilder) => void> = plan.nodes.map(({ node, place, top }) => (tx) => {
    planPendingNode(tx, node, plan.job.id, top, claimed);
    planPathKeys(tx, ctx, null, node);
    if (roots) for (const item of projectionItems(ctx.strategy, node, place)) tx.put(item);
  });
  const last = plan.nodes.filter((n) => n.top).length - 1; // parents first: the top nodes lead
  // Its progress, in the parent's tree (none for new roots: no tree holds them yet).
  const progress = plan.place.parent ? importChange(plan, plan.place.parent, 'JOB_PROGRESS') : undefined;
  await commitInChunks(ctx, plan.lease, batches.slice(last, last + 1), true, progress);
  await commitInChunks(ctx, plan.lease, [...batches.slice(0, last), ...batches.slice(last + 1)], true, progress);
}

/**
 * Step 2. Throws ConditionFailed when the parent's chain changed since it was read (the caller
 * gives the job up), LeaseLost when another process took the job over.
 */
export async function join(ctx: EngineContext, plan: ImportPlan): Promise<void> {
  const { place, job } = plan;
  const { parent } = place;
  // Committed long after the read, with every guard of the parent's place.
  const tx = place.transaction((joining) => {
    planJoin(joining, { parent, count: plan.nodes.filter((n) => n.top).length, copies: place.copies });
    if (plan.projected && parent) {
      const ancestors = place.chain.slice(0, -1).map((c) => c.node.id);
      planEntryJoin(joining, job.id, { nodeId: parent.node.id, ancestors });
    } else {
      planEntryJoin(joining, job.id, undefined);
    }
    plan.as?.planAlso?.(joining);
  });
  // Its record, in the parent's tree: the import's nodes are its children from now on.
  const changes = plan.as ? [joinedAs(plan, plan.as)] : parent ? [importChange(plan, parent, 'JOB_DONE')] : [];
  await commitChunk(ctx, tx, plan.lease, { record: { joined: true }, ...(changes[0] ? { change: changes[0] } : {}) });
}

/** The record of a copy or a restore run as an import: its one top node, joined with its subtree. */
function joinedAs(plan: ImportPlan, as: CreatedAs): ChangeDraft {
  const path = plan.place.chain.map((c) => c.node.id);
  const top = plan.nodes.find((n) => n.top)!;
  const { job } = plan;
  return draft(path[0] ?? top.node.id, {
    kind: as.kind,
    nodeId: top.node.id,
    node: top.node,
    to: { parentId: top.node.parentId, path },
    count: plan.nodes.length,
    job: { id: job.id, kind: job.kind, status: 'DONE' },
  });
}

/**
 * A record of an import, in the parent's tree: its progress, or its join (JOB_DONE: its nodes are
 * the parent's children from then on, done as far as readers go).
 */
function importChange(plan: ImportPlan, parent: StoredNode, kind: 'JOB_PROGRESS' | 'JOB_DONE'): ChangeDraft {
  const path = plan.place.chain.map((c) => c.node.id);
  const { job, nodes } = plan;
  return draft(path[0]!, {
    kind,
    nodeId: parent.node.id,
    to: { parentId: parent.node.parentId, path: path.slice(0, -1) },
    ...(kind === 'JOB_DONE' ? { count: nodes.length } : {}),
    job: { id: job.id, kind: job.kind, status: kind === 'JOB_DONE' ? 'DONE' : 'RUNNING' },
  });
}
