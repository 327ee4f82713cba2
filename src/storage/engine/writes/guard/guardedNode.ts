import { nodeKey } from '../../../../dynamodb/keys.js';
import type { TransactionBuilder } from '../../../../dynamodb/transactionBuilder.js';
import { TreeError } from '../../../../errors.js';
import type { StoredNode } from '../../../strategy.js';
import type { AccessLevel } from '../../../treeStore.js';
import { checkId } from '../../../validation.js';
import { otherClaim, planNodeUnclaimed } from '../../core/claims.js';
import type { CallerAccess, EngineContext } from '../../core/engineContext.js';
import { Replan } from '../../core/replan.js';
import { existing } from '../../core/items.js';
import { NO_OPEN_JOBS, overlappingMove, settledPath, type OpenJobs } from '../../core/openJobs.js';
import { copiesOf, placeOf } from '../../core/projectionPlans.js';
import { CHAIN_GUARDS, type CopiesOf } from '../../core/writePlans.js';
import { Guard } from '../../guard/guardedTransaction.js';
import { readVisible, type ReadScope } from '../../reads/visibleNodes.js';
import { waitForOverlappingJob } from './overlapWait.js';

/** What a write to one node (an update, a delete) reads it for, and what it expects of it. */
export interface NodeRequest {
  id: string;
  /** The version the caller expects (VERSION_CONFLICT otherwise). */
  expectedVersion?: number | null;
  /** The parent the caller expects (expectedParent: PARENT_CONFLICT otherwise). */
  expectedParentId?: string | null;
  /** What the write does, for the CONFLICT of a wait that timed out (`deleting "x"`). */
  doing: string;
  /** Waits for an open move job over the node's subtree too, not only for a job claiming it. */
  overlappingMoves?: boolean;
  /** The write's own check on the node, before any wait. */
  check?: (stored: StoredNode) => void;
  /** The level the caller needs on the node (default: write). */
  level?: AccessLevel;
  /**
   * The write takes the node away (a delete): a grant on the node itself is not enough, as for
   * a move out of the subtree shared with the caller (CallerAccess.requireMove).
   */
  takesAway?: boolean;
}

/**
 * A node as a write to it reads it: the one prelude of the writes that change a node where it
 * is (an update, a delete). `GuardedNode.read` reads the node with the list of open jobs,
 * checks what the caller expects of it (its version, its parent) and the write's own check,
 * waits for a job that claims it (or whose move overlaps it), then reads its tree with the
 * caller's grant (readNodeTree). Its transactions carry the guards: the node (or the subtree a
 * delete takes) claimed by no other job, and the node still in the tree it was read in.
 */
export class GuardedNode extends Guard {
  private constructor(
    readonly stored: StoredNode,
    /** The open jobs as read with the node. */
    readonly open: OpenJobs,
    /** Its tree and ancestors, and the guard that keeps it there. */
    readonly tree: NodeTree,
    /** Where the strategy keeps copies of a node, as the table's projection stands. */
    readonly copies: CopiesOf,
    private readonly guarded: {
      table: string;
      unclaimed: readonly StoredNode[];
      claimant?: string;
      access: CallerAccess | undefined;
    },
  ) {
    super(guarded.table);
  }

  /** Reads a node for a write to it (see the class's comment). */
  static async read(ctx: EngineContext, request: NodeRequest): Promise<GuardedNode> {
    const scope: ReadScope = {};
    const stored = existing(await readVisible(ctx, [request.id], scope), request.id);
    const open = scope.open ?? NO_OPEN_JOBS;
    checkVersion(stored, request.expectedVersion);
    checkParent(stored, request.expectedParentId);
    request.check?.(stored);
    const moving = request.overlappingMoves
      ? overlappingMove(open, request.id, settledPlace(ctx, open, stored))
      : undefined;
    const overlap = moving?.id ?? otherClaim(stored);
    if (overlap) await waitForOverlappingJob(ctx, overlap, request.doing);
    const tree = await readNodeTree(ctx, stored, open, { level: request.level, takesAway: request.takesAway });
    const guarded = { table: ctx.table, unclaimed: [stored], access: ctx.access };
    return new GuardedNode(stored, open, tree, copiesIn(ctx, open), guarded);
  }

  /** The same guard over the nodes a write takes with the node (a delete's subtree), or that job `claimant` claims. */
  over(nodes: readonly StoredNode[], claimant?: string): GuardedNode {
    const guarded = { ...this.guarded, unclaimed: nodes, ...(claimant ? { claimant } : {}) };
    return new GuardedNode(this.stored, this.open, this.tree, this.copies, guarded);
  }

  protected planGuards(tx: TransactionBuilder): void {
    planNodeUnclaimed(tx, this.guarded.unclaimed, this.guarded.claimant);
    this.tree.guard(tx);
  }

  protected override explain(failed: readonly string[]): Error | undefined {
    return grantLost(this.guarded.access, failed);
  }
}

/**
 * Where the strategy keeps copies of a node (none under adjacency, nor when a reindex gave the
 * table another strategy's projection: OpenJobs.projection).
 */
export function copiesIn(ctx: EngineContext, open: OpenJobs): CopiesOf {
  const projection = open.projection;
  if (projection !== undefined && projection !== ctx.strategy.name) return () => [];
  return (stored) => copiesOf(ctx.strategy, stored);
}

/** The node's path once the open moves are done ([] for a strategy that keeps none). */
export const settledPlace = (ctx: EngineContext, open: OpenJobs, stored: StoredNode): string[] =>
  settledPath(open, stored.node.id, [...placeOf(ctx.strategy, stored).path]);

/** Where a node is, as a write to it reads it: its tree, its ancestors, and the guard that keeps them. */
export interface NodeTree {
  rootId: string;
  /** Its ancestors' ids, root first, the parent last ([] for a root). */
  path: string[];
  /** Keeps the node where it was read until the write commits. */
  guard(tx: TransactionBuilder): void;
}

/**
 * Where a write to node `stored` finds it (its change is recorded in that tree's log: changes/),
 * with the caller's level on it checked (`level`, default write: NOT_FOUND, FORBIDDEN), and the
 * guard that keeps it there until the write commits. Under a strategy that keeps paths, for a
 * caller who may do anything, the node's own path (as the open moves leave it) and its rev: a
 * move of the node or an ancestor rewrites it. Otherwise the parent's chain, read, and the
 * strategy's guard on it (the chain above it unchanged; the node's own move fails the write's
 * condition on its rev), with the guard of the grant the caller's level comes from.
 */
export async function readNodeTree(
  ctx: EngineContext,
  stored: StoredNode,
  open: OpenJobs,
  options: { label?: string; level?: AccessLevel | undefined; takesAway?: boolean | undefined } = {},
): Promise<NodeTree> {
  const { label = 'node', level = 'write' } = options;
  const { id, parentId } = stored.node;
  if (!ctx.access && ctx.strategy.keeps !== 'nothing') {
    const path = settledPlace(ctx, open, stored);
    return {
      rootId: path[0] ?? id,
      path,
      guard: (tx) => tx.check(nodeKey(id), { equals: ['rev', stored.rev] }),
    };
  }
  const above =
    parentId === null
      ? []
      : await ctx.strategy.readChain(ctx, existing(await readVisible(ctx, [parentId]), parentId, 'parent'));
  const path = above.map((c) => c.node.id);
  const keep = ctx.access ? await ctx.access.require([...path, id], level, label, id) : undefined;
  const away = ctx.access && options.takesAway ? await ctx.access.requireMove([...path, id], path, id) : undefined;
  return {
    rootId: path[0] ?? id,
    path,
    guard: (tx) => {
      ctx.strategy.guardChain(tx, above, Date.now(), CHAIN_GUARDS);
      keep?.(tx);
      away?.(tx);
    },
  };
}

/**
 * What a write's failed conditions mean when one of them was on a grant the caller relied on:
 * the grant changed (revoked, lowered), so the caller's grants are read again and the write
 * plans again (and is refused if it may no longer make it).
 */
export function grantLost(access: CallerAccess | undefined, failed: readonly string[]): Error | undefined {
  if (!access || !failed.some((key) => access.guards(key))) return undefined;
  access.forget();
  return new Replan('a grant it relies on changed');
}

/**
 * The parent a caller expects a node to have (`expectedParentId`: an id, or '' for a root, null),
 * its form checked; undefined when it expects none.
 */
export function expectedParent(expected: string | null | undefined): string | null | undefined {
  if (expected === null || expected === undefined) return undefined;
  return expected === '' ? null : checkId(expected, 'expectedParentId');
}

/** A node's parent, when the caller expects one (PARENT_CONFLICT otherwise, naming the current one). */
export function checkParent(stored: StoredNode, expected: string | null | undefined): void {
  if (expected === undefined || stored.node.parentId === expected) return;
  const where = (id: string | null) => (id === null ? 'a root' : `under "${id}"`);
  throw new TreeError(
    'PARENT_CONFLICT',
    `node "${stored.node.id}" is ${where(stored.node.parentId)}, expected ${where(expected)}`,
    { id: stored.node.id, currentParentId: stored.node.parentId },
  );
}

/** A node's version, when the caller expects one (VERSION_CONFLICT otherwise). */
export function checkVersion(stored: StoredNode, expected: number | null | undefined): void {
  if (expected !== null && expected !== undefined && stored.node.version !== expected) {
    throw new TreeError(
      'VERSION_CONFLICT',
      `node "${stored.node.id}" is at version ${stored.node.version}, expected ${expected}`,
      {
        currentVersion: stored.node.version,
      },
    );
  }
}
