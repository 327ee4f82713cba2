import type { TransactionBuilder } from '../../../../dynamodb/transactionBuilder.js';
import { TreeError } from '../../../../errors.js';
import type { Place, StoredNode, TreeStrategy } from '../../../strategy.js';
import type { EngineContext, GrantGuard, TableContext } from '../../core/engineContext.js';
import { existing } from '../../core/items.js';
import { NOWHERE } from '../../core/projectionPlans.js';
import { moveOf, NO_OPEN_JOBS, overlappingMove, type OpenJobs, type OpenMove } from '../../core/openJobs.js';
import { readVisible, type ReadScope } from '../../reads/visibleNodes.js';
import { waitForOverlappingJob } from './overlapWait.js';
import { planNotRespacing, planRenewHold, type CopiesOf, CHAIN_GUARDS } from '../../core/writePlans.js';
import { otherClaim, planParentUnclaimed } from '../../core/claims.js';
import { Guard } from '../../guard/guardedTransaction.js';
import { copiesIn, grantLost, settledPlace } from './guardedNode.js';

/**
 * A place under a parent: the one way a structural write (createNode, createNodes and its
 * import, a move or a reorder, each reorder of a respacing) reads where it goes and commits
 * there. `readPlace` reads what every such write needs and refuses what every one must refuse,
 * in this order:
 *
 * 1. the parent (null: the roots) and the other nodes the write names, in one BatchGet with the
 *    list of open jobs (visibleNodes.ts), then the write's own checks on them (`check`);
 * 2. the parent's chain (the strategy's readChain: NOT_FOUND when the parent or an ancestor is
 *    missing or being deleted);
 * 3. a parent whose children are being respaced: CONFLICT (but for the respacing's own steps);
 * 4. a job claiming the parent or the moving node (claims.ts), or an open move job whose subtree
 *    holds the parent (or the moving node, or lies below it): waits for it, then the write
 *    re-plans (Replan), or CONFLICT when it stalls (overlapWait.ts);
 * 5. the caller's level on the parent (EngineContext.access), on the chain read here: NOT_FOUND
 *    as if the parent did not exist, or FORBIDDEN where the caller may only read; the grant it
 *    comes from is guarded until the write commits.
 *
 * Its transactions (`transaction`) carry every guard the place needs at commit: the strategy's
 * guard on the chain (so the parent is still in the tree and the place the write read: a move
 * of the parent or of an ancestor, into another tree too, fails the write: under adjacency every
 * node of the chain, elsewhere the parent's kept path), the parent claimed by no job (claims.ts),
 * and the parent not being respaced (or, for a respacing's step, its hold renewed). No item
 * outside the place and what the strategy's chain guard names: under a strategy that keeps
 * paths, writes under different parents share none. A structural write's transaction can only
 * be had from a place (a Guard), and is committed with `commitWrite`.
 */
export interface PlaceRequest {
  /** The new parent; null: the roots. */
  parentId: string | null;
  /** How a NOT_FOUND names the parent ('parent', 'new parent'). */
  parentLabel: string;
  /** Other nodes the write reads with the parent (the moving node, the siblings it names). */
  alsoRead?: ReadonlyArray<string | null | undefined>;
  /** The node a move moves: an open move job over its subtree makes the write wait too. */
  movingId?: string;
  /** What the write does, for the CONFLICT of a wait that timed out (`creating "x"`). */
  doing: string;
  /** The write's checks on the nodes read, before the chain is read (ALREADY_EXISTS, VERSION_CONFLICT). */
  check?: (known: ReadonlyMap<string, StoredNode>) => void;
  /** A respacing's own step: the parent's hold it passes, and the instant it renews it to. */
  respacing?: RespacingHold;
}

/** The hold of a respacing on a parent (respace.ts): until when it runs, and until when it is renewed. */
export interface RespacingHold {
  until: number;
  renewed: number;
}

export class GuardedPlace extends Guard {
  private constructor(
    private readonly ctx: EngineContext,
    /** The nodes read with the parent (parent included), as writes see them. */
    readonly known: ReadonlyMap<string, StoredNode>,
    /** The parent's chain, root first, the parent last; [] for the roots. */
    readonly chain: readonly StoredNode[],
    /** The open jobs as read with the nodes. */
    readonly open: OpenJobs,
    /** Where the strategy keeps copies of a node, as the table's projection stands. */
    readonly copies: CopiesOf,
    private readonly respacing: RespacingHold | undefined,
    /** Keeps the grant the caller's write under the parent comes from. */
    private readonly keep: GrantGuard | undefined,
  ) {
    super(ctx.table);
  }

  /** Reads a place under a parent for a structural write (see the module's comment). */
  static async read(ctx: EngineContext, request: PlaceRequest): Promise<GuardedPlace> {
    const { parentId } = request;
    const scope: ReadScope = {};
    const ids = [
      ...new Set([parentId, ...(request.alsoRead ?? [])].filter((id): id is string => typeof id === 'string')),
    ];
    const known = await readVisible(ctx, ids, scope);
    const open = scope.open ?? NO_OPEN_JOBS;
    request.check?.(known);
    const chain =
      parentId === null ? [] : await ctx.strategy.readChain(ctx, existing(known, parentId, request.parentLabel));
    const parent = chain[chain.length - 1];
    if (!request.respacing) refuseWhileRespacing(parent, Date.now());
    const moving = request.movingId === undefined ? undefined : known.get(request.movingId);
    const overlap: OpenMove | undefined =
      (moving && overlappingMove(open, moving.node.id, settledPlace(ctx, open, moving))) ??
      (parent ? moveOf(open, parent.node.id, settledPlace(ctx, open, parent)) : undefined);
    const claim = overlap?.id ?? otherClaim(parent) ?? otherClaim(moving);
    if (claim) await waitForOverlappingJob(ctx, claim, request.doing);
    const path = chain.map((c) => c.node.id);
    const keep =
      ctx.access && parentId !== null
        ? await ctx.access.require(path, 'write', request.parentLabel, parentId)
        : undefined;
    return new GuardedPlace(ctx, known, chain, open, copiesIn(ctx, open), request.respacing, keep);
  }

  /** The parent, or null for the roots. */
  get parent(): StoredNode | null {
    return this.chain[this.chain.length - 1] ?? null;
  }

  /** The place of a child of the parent at sibling position `position`, whose own path key is `key` (KeyOf). */
  placeAt(position: string, key: string): Place {
    return chainPlace(this.chain, position, key);
  }

  /** The parent's own place (NOWHERE for the roots). */
  get parentPlace(): Place {
    const parent = this.parent;
    if (!parent) return NOWHERE;
    return chainPlace(this.chain.slice(0, -1), parent.node.position, parent.node.keys?.at(-1) ?? '');
  }

  /** Refuses a node `below` levels below the parent deeper than MAX_TREE_DEPTH (DEPTH_LIMIT). */
  checkDepthBelow(below: number): void {
    checkDepth(this.ctx, this.chain.length - 1 + below);
  }

  /** The guards of the place (planPlaceGuards), at the instant of the transaction. */
  protected planGuards(tx: TransactionBuilder): void {
    const { strategy } = this.ctx;
    planPlaceGuards(tx, { strategy, chain: this.chain, respacing: this.respacing, now: Date.now() });
    this.keep?.(tx);
  }

  protected override explain(failed: readonly string[]): Error | undefined {
    return grantLost(this.ctx.access, failed);
  }
}

/**
 * Pure. The guards of a place at commit: the strategy's guard on the chain (root first, the
 * parent last), the parent claimed by no job (claims.ts), and the parent's children not being
 * respaced (a respacing's own step passes its hold, a hold being below any instant after it,
 * and renews it).
 */
export function planPlaceGuards(
  tx: TransactionBuilder,
  guards: {
    strategy: TreeStrategy;
    chain: readonly StoredNode[];
    respacing?: RespacingHold;
    now: number;
  },
): void {
  const { chain, respacing, now } = guards;
  const parent = chain[chain.length - 1] ?? null;
  guards.strategy.guardChain(tx, chain, now, CHAIN_GUARDS);
  planParentUnclaimed(tx, parent);
  if (respacing && parent) {
    planNotRespacing(tx, parent, respacing.until + 1);
    planRenewHold(tx, parent, respacing.until, respacing.renewed, 'respacing');
  } else {
    planNotRespacing(tx, parent, now);
  }
}

/** Reads a place under a parent for a structural write (see the module's comment). */
export const readPlace = (ctx: EngineContext, request: PlaceRequest): Promise<GuardedPlace> =>
  GuardedPlace.read(ctx, request);

/**
 * The place of a node under `chain` (root first, parent last) at sibling position `position`,
 * with path key `key`: the path keys above it are the parent's kept ones (none kept: '').
 */
export const chainPlace = (chain: readonly StoredNode[], position: string, key: string): Place => {
  const parent = chain[chain.length - 1];
  return {
    path: chain.map((c) => c.node.id),
    lineage: [...chain.map((c) => c.node.position), position],
    keys: parent ? [...(parent.node.keys ?? chain.slice(1).map(() => '')), key] : [],
  };
};

export function checkDepth(ctx: TableContext, depth: number): void {
  if (depth > ctx.maxTreeDepth) {
    throw new TreeError(
      'DEPTH_LIMIT',
      `the write would put a node at depth ${depth}; the limit is ${ctx.maxTreeDepth}`,
      {
        depth,
        maxDepth: ctx.maxTreeDepth,
      },
    );
  }
}

/**
 * Refuses a create or a move under a parent whose children are being respaced (its hold runs
 * past `now`): the transaction's check (planNotRespacing) would refuse it on every re-plan.
 */
export function refuseWhileRespacing(parent: StoredNode | null | undefined, now: number): void {
  if (parent?.respacing !== undefined && parent.respacing >= now) {
    throw new TreeError(
      'CONFLICT',
      `the children of "${parent.node.id}" are being respaced (tree reindex --respace); ` +
        'nothing was applied: try again once it is done',
    );
  }
}
