import { randomUUID } from 'node:crypto';
import { ConditionFailed } from '../../../dynamodb/conditionFailed.js';
import { TreeError } from '../../../errors.js';
import {
  TooManyItems,
  type CreateNodesArgs,
  type CreateNodesOptions,
  type CreateNodesResult,
  type ChangeKind,
  type Job,
  type TreeNode,
} from '../../treeStore.js';
import { checkId, MAX_CREATE_NODES } from '../../validation.js';
import { LeaseLost } from '../jobs/commitChunk.js';
import type { EngineContext } from '../core/engineContext.js';
import { readPlace, type GuardedPlace } from './guard/guardedPlace.js';
import { commitWrite } from '../guard/guardedTransaction.js';
import { draft, holdsRecords } from '../changes/recordChanges.js';
import type { ChangeDraft } from '../changes/changeRecord.js';
import { keptImports, undoImport } from '../jobs/importJob.js';
import { join, writePending, type CreatedAs, type ImportPlan } from './importNodes.js';
import { newJob, planJobStart, publicJob, type ImportedNode } from '../jobs/jobRecord.js';
import { announceJob } from '../jobs/announceJob.js';
import { newLease, runLeased } from '../jobs/jobRunner.js';
import { planNewNodes, within, type NewNode } from './newNodes.js';
import { checkChildType, typedList } from './typedNodes.js';
import { findSlot } from './slot.js';
import { newIncarnation } from '../core/items.js';
import { keyOfIn, NOWHERE, projectionItems } from '../core/projectionPlans.js';
import { readAdjacent, readStored } from '../core/reads.js';
import { replanning } from '../core/replan.js';
import { planAdopt, planNewNode, planPathKeys, type Slot } from '../core/writePlans.js';

/**
 * createNodes: up to 1,000 new nodes under one parent (or as roots), given as a list whose
 * nodes name their parent in the list (newNodes.ts). Checked whole before anything is written:
 * the list (BAD_USER_INPUT naming the node), the parent (NOT_FOUND), the depth (DEPTH_LIMIT),
 * the ids (ALREADY_EXISTS). Then, when every item fits one transaction (TRANSACTION_ITEMS), one
 * transaction writes them, as createNode writes one node; otherwise an IMPORT job
 * (importJob.ts), which this call runs and waits for: its nodes join the tree in one
 * transaction once all are written, so no read ever sees part of them, and a job that fails
 * before they joined leaves nothing behind (CONFLICT when the parent moved or was deleted
 * meanwhile). Once they joined, the call answers, even if the projection is still being
 * written by a process that took the job over: reads answer from the truth until it is done.
 */
export async function createNodes(
  ctx: EngineContext,
  args: CreateNodesArgs,
  options: CreateNodesOptions & { as?: CreatedAs } = {},
): Promise<CreateNodesResult> {
  const parentId = args.parentId == null ? null : checkId(args.parentId, 'parentId');
  // Ids generated once, so that every attempt writes the same nodes; the list checked before any read.
  const withIds = args.nodes.map((n) => (n.id == null ? { ...n, id: randomUUID() } : n));
  const list = { parentId, nodes: typedList(ctx, withIds, parentId) };
  planNewNodes(list, { id: parentId, place: NOWHERE, lastPosition: null }, '', randomUUID, maxNodes(options));
  const planned = await replanning(() => writeOrStartImport(ctx, list, options));
  const job = planned.plan ? await runImport(ctx, planned.plan) : null;
  const byId = new Map(planned.nodes.map((n) => [n.node.id, answered(n)]));
  return { nodes: list.nodes.map((n) => byId.get(n.id!)!), job };
}

type List = CreateNodesArgs & { parentId: string | null };

const maxNodes = (options: { as?: CreatedAs }) => (options.as ? Number.MAX_SAFE_INTEGER : MAX_CREATE_NODES);

/** One attempt: the nodes in one transaction when they fit, else the start of their IMPORT job. */
async function writeOrStartImport(
  ctx: EngineContext,
  list: List,
  options: CreateNodesOptions & { as?: CreatedAs },
): Promise<{ nodes: NewNode[]; plan?: ImportPlan }> {
  const { parentId } = list;
  const { as } = options;
  const place = await readPlace(ctx, {
    parentId,
    parentLabel: 'parent',
    alsoRead: [as?.before, as?.after],
    doing: `creating nodes under "${parentId}"`,
  });
  for (const [i, node] of list.nodes.entries()) {
    if (node.parentId == null) within(`nodes[${i}]`, () => checkChildType(ctx, place.parent, node.type));
  }
  const slot = as?.before || as?.after ? await slotOf(ctx, place, list, as) : NO_SLOT;
  const nodes = await placedNodes(ctx, place, list, slot.position || undefined, maxNodes(options));
  // Computed before anything is written: a key the strategy cannot write is refused here (DEPTH_LIMIT).
  const items = nodes.map((n) => projectionItems(ctx.strategy, n.node, n.place));
  const tx = place.transaction((plan) => {
    nodes.forEach((n, i) => {
      planNewNode(plan, n.node, { edge: !n.top });
      planPathKeys(plan, ctx, null, n.node);
      for (const item of items[i]!) plan.put(item);
    });
    const children = nodes.filter((n) => n.top).map((n) => n.node);
    planAdopt(plan, { parent: place.parent, children, slot, copies: place.copies });
    as?.planAlso?.(plan);
  });
  const changes = createdChanges(place, nodes, as?.kind);
  if (holdsRecords(ctx, tx, changes)) {
    await commitWrite(ctx, tx, { changes });
    return { nodes };
  }
  if (options.oneTransaction) throw new TooManyItems(tx.size, ctx.transactionItems);
  const imports = nodes.map((n): ImportedNode => [n.node.id, n.node.parentId, n.node.position]);
  const job = newJob('IMPORT', parentId, nodes.length);
  Object.assign(job, await keptImports(ctx, job.id, imports));
  // Always this process's lease, whatever JOB_RUNNER says: only this process has the nodes' names and data.
  const lease = newLease(ctx, job.id);
  const announced = await announceJob(ctx, place.open);
  const start = place.transaction((plan) => planJobStart(plan, job, lease, Date.now(), announced));
  await commitWrite(ctx, start);
  const projected = items.some((i) => i.length > 0);
  return { nodes, plan: { job, lease, nodes, place, projected, ...(as ? { as } : {}) } };
}

const NO_SLOT: Slot = { position: '', neighbours: [] };

/** Where the one top node of a copy or a restore goes among its siblings: before/after (slot.ts). */
async function slotOf(ctx: EngineContext, place: GuardedPlace, list: List, as: CreatedAs): Promise<Slot> {
  const tops = list.nodes.filter((n) => n.parentId == null);
  if (tops.length !== 1) throw new Error('a list placed before or after a sibling has one top node');
  const { before, after } = as;
  return findSlot(ctx, { parentId: list.parentId, placingId: tops[0]!.id!, before, after, known: place.known });
}

/** The records of a list created in one transaction: each top node, with the size of its subtree. */
function createdChanges(place: GuardedPlace, nodes: readonly NewNode[], kind: ChangeKind = 'CREATED'): ChangeDraft[] {
  const path = place.chain.map((c) => c.node.id);
  return nodes
    .filter((n) => n.top)
    .map((top) =>
      draft(path[0] ?? top.node.id, {
        kind,
        nodeId: top.node.id,
        node: top.node,
        to: { parentId: top.node.parentId, path },
        count: nodes.filter((n) => n === top || n.place.path.includes(top.node.id)).length,
      }),
    );
}

/**
 * The list's nodes at their places under the parent, after its last child (or its one top node at
 * `topPosition`); DEPTH_LIMIT, ALREADY_EXISTS.
 */
async function placedNodes(
  ctx: EngineContext,
  place: GuardedPlace,
  list: List,
  topPosition: string | undefined,
  most: number,
): Promise<NewNode[]> {
  const last = topPosition === undefined ? await readAdjacent(ctx, list.parentId, null, 'before', '') : null;
  const under = {
    id: list.parentId,
    place: place.parentPlace,
    lastPosition: last?.node.position ?? null,
    topPosition,
    keyOf: keyOfIn(ctx),
  };
  // One stamp for the nodes of one write: an undo of it tells them from nodes added since.
  const incarnation = newIncarnation();
  const nodes = planNewNodes(list, under, new Date().toISOString(), randomUUID, most).map((n) => ({
    ...n,
    node: { ...n.node, incarnation, ...ctx.strategy.nodeFields(n.place) },
  }));
  place.checkDepthBelow(Math.max(...nodes.map((n) => n.below)));
  const taken = await readStored(
    ctx,
    nodes.map((n) => n.node.id),
  );
  const first = nodes.find((n) => taken.has(n.node.id));
  if (first) {
    throw new TreeError('ALREADY_EXISTS', `a node with id "${first.node.id}" already exists`, { id: first.node.id });
  }
  return nodes;
}

/** The node as the caller gets it, with its depth and root (computed from its place, under every strategy). */
const answered = ({ node, place }: NewNode): TreeNode => ({
  ...node,
  depth: place.path.length,
  rootId: place.path[0] ?? node.id,
});

/** Runs the import job this call started; its answer once the nodes joined the tree. */
async function runImport(ctx: EngineContext, plan: ImportPlan): Promise<Job> {
  const { job, lease } = plan;
  try {
    await writePending(ctx, plan);
    await join(ctx, plan);
  } catch (error) {
    if (error instanceof LeaseLost)
      throw new TreeError(
        'CONFLICT',
        `import job ${job.id} was taken over by another process, which gives it up; nothing was created`,
        { jobId: job.id },
      );
    await undoImport(ctx, job, lease).catch(() => {
      // DynamoDB is away, or the lease was lost: any live process's sweep gives the job up.
    });
    if (error instanceof ConditionFailed) {
      throw new TreeError(
        'CONFLICT',
        'the parent moved, was deleted or had its children respaced while the nodes were written, ' +
          'or one of their ids was taken; nothing was created',
        { jobId: job.id },
      );
    }
    throw error;
  }
  const done: Job = { ...publicJob(job), status: 'DONE', done: job.total ?? 0 };
  // The nodes are in the tree: a failure now leaves the job to a sweep (runLeased gives the
  // lease up), and reads answer from the truth until it is done.
  return (await runLeased(ctx, { ...job, joined: true }, lease)) ? done : { ...done, status: 'RUNNING' };
}
