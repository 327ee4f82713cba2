import { keyString, pathKeyKey, type Key } from '../../../dynamodb/keys.js';
import type { Condition, TransactionBuilder, UpdateSpec } from '../../../dynamodb/transactionBuilder.js';
import type { ChainGuards, StoredNode } from '../../strategy.js';
import type { JsonObject, TreeNode } from '../../treeStore.js';
import type { EngineContext } from './engineContext.js';
import { edgeItem, edgeKey, LIVE, nodeItem, nodeKey, PENDING } from './items.js';
import { CLAIM } from './claims.js';
import type { Copy } from './projectionPlans.js';

/**
 * Pure builders of the truth's transactions: one transaction per structural change holding the
 * node, its edge items, both parents' childCount (node item and edge copy), and a guard on the
 * neighbours that define the new position. The caller adds the strategy's guard on the new
 * parent's chain (TreeStrategy.guardChain) and the projection (projectionPlans.ts).
 * Serializable transactions plus these guards are what make concurrent moves unable to build a
 * cycle or an orphan (docs/design.md, "Writes that never corrupt the tree").
 */

/** Where a node goes among its siblings (writes/slot.ts finds it). */
export interface Slot {
  position: string;
  /** The siblings the position was computed between; they must still be there. */
  neighbours: TreeNode[];
}

/** The chain node is still where we read it, alive, and accepting children (not held). */
export function guardChainNode(tx: TransactionBuilder, chainNode: StoredNode, now: number): void {
  tx.check(
    nodeKey(chainNode.node.id),
    { exists: true },
    { missing: 'deleting' },
    { equalsOrMissing: ['parentId', chainNode.node.parentId] },
    { missingOrBelow: [HOLD, now] },
  );
}

/** The truth's guards on chain nodes, as guardChain is handed them. */
export const CHAIN_GUARDS: ChainGuards = { node: guardChainNode };

/**
 * Two ways to hold a node: epoch milliseconds until which no write may place a node somewhere
 * under it.
 * - `hold`: below it, anywhere. A move that takes its subtree deeper under a strategy that
 *   guards no moved subtree holds the moved node (adjacency's guardChain refuses a held chain
 *   node), reads the subtree's height, and commits with planReleaseHold.
 * - `respacing`: among its children. The respacing of its children (respace.ts) holds it and
 *   renews the hold with each step (planRenewHold); every create and move checks its new
 *   parent, whatever the strategy (planNotRespacing).
 */
export type HoldKind = 'hold' | 'respacing';
const HOLD: HoldKind = 'hold';

/** Holds `node` until `until`, unless it changed since it was read or is held already. */
export function planHold(
  tx: TransactionBuilder,
  node: StoredNode,
  now: number,
  until: number,
  kind: HoldKind = HOLD,
): void {
  tx.update(nodeKey(node.node.id), { set: { [kind]: until } }, ...unchangedSince(node), {
    missingOrBelow: [kind, now],
  });
}

/** Extends the hold set until `until` to `renewed`, on the condition that it is still that one. */
export function planRenewHold(
  tx: TransactionBuilder,
  node: StoredNode,
  until: number,
  renewed: number,
  kind: HoldKind = HOLD,
): void {
  tx.update(nodeKey(node.node.id), { set: { [kind]: renewed } }, { exists: true }, { equals: [kind, until] });
}

/** Releases the hold set until `until` (in the move's own transaction, or after a refusal). */
export function planReleaseHold(tx: TransactionBuilder, node: StoredNode, until: number, kind: HoldKind = HOLD): void {
  tx.update(nodeKey(node.node.id), { remove: [kind] }, { equals: [kind, until] });
}

/**
 * The new parent of a create or a move has no respacing of its children under way at `now`
 * (a respacing's own steps pass an instant just after its hold).
 */
export function planNotRespacing(tx: TransactionBuilder, parent: StoredNode | null | undefined, now: number): void {
  if (parent) tx.check(nodeKey(parent.node.id), { missingOrBelow: ['respacing', now] });
}

/**
 * The node item is as it was read: its rev, and its incarnation when it has one (revs restart
 * at 1 when an id is used again: a node deleted and made again could be back at the same rev).
 */
const unchangedSince = (stored: StoredNode): Condition[] => [
  { exists: true },
  { missing: 'deleting' },
  { equals: ['rev', stored.rev] },
  ...(stored.node.incarnation ? [{ equals: ['incarnation', stored.node.incarnation] } as Condition] : []),
];

/** The projection items that carry a copy of a node (projectionPlans.copiesOf). */
export type CopiesOf = (stored: StoredNode) => Copy[];

/** A projection that keeps no copy of any node. */
export const NO_COPIES: CopiesOf = () => [];

/**
 * A change to a node's fields, in its node item (on `conditions`) and in every copy of it: its
 * edge item and the projection's copies (which carry no rev), each on the condition that it
 * exists, so a copy is never created by an update.
 */
function changeNode(
  tx: TransactionBuilder,
  stored: StoredNode,
  update: UpdateSpec,
  copies: Copy[],
  ...conditions: Condition[]
): void {
  tx.update(nodeKey(stored.node.id), update, ...conditions);
  tx.update(edgeKey(stored.node), update, { exists: true });
  const { rev: _rev, ...add } = update.add ?? {};
  for (const { key, lacks } of copies) {
    const change = lacking({ ...update, add }, lacks);
    if (change) tx.update(key, change, { exists: true });
  }
}

/** `update` without the fields a copy leaves out; null when nothing of it is left. */
function lacking(update: UpdateSpec, lacks: readonly string[]): UpdateSpec | null {
  if (lacks.length === 0) return update;
  const keep = ([name]: [string, unknown]) => !lacks.includes(name);
  const set = Object.fromEntries(Object.entries(update.set ?? {}).filter(keep));
  const add = Object.fromEntries(Object.entries(update.add ?? {}).filter(keep)) as Record<string, number>;
  const remove = (update.remove ?? []).filter((name) => !lacks.includes(name));
  const empty = Object.keys(set).length + Object.keys(add).length + remove.length === 0;
  return empty ? null : { ...update, set, add, remove };
}

/** Adds `delta` to a node's childCount, in its node item and every copy. */
function bumpChildCount(tx: TransactionBuilder, parent: StoredNode, delta: number, copies: CopiesOf): void {
  changeNode(tx, parent, { add: { childCount: delta, rev: 1 } }, copies(parent), { exists: true });
}

function guardSlot(tx: TransactionBuilder, slot: Slot): void {
  for (const neighbour of slot.neighbours) tx.check(edgeKey(neighbour), { exists: true });
}

export function planCreate(
  tx: TransactionBuilder,
  args: { node: TreeNode; chain: StoredNode[]; slot: Slot; copies: CopiesOf },
): void {
  planNewNode(tx, args.node, { edge: false });
  planAdopt(tx, {
    parent: args.chain[args.chain.length - 1] ?? null,
    children: [args.node],
    slot: args.slot,
    copies: args.copies,
  });
}

/** A new node's node item, and its edge item unless `edge` is false (planAdopt writes it then). */
export function planNewNode(tx: TransactionBuilder, node: TreeNode, options: { edge?: boolean } = {}): void {
  tx.put(nodeItem(node, 1), { notExists: true });
  if (options.edge !== false) tx.put(edgeItem(node, 1), { notExists: true });
}

/**
 * A node an IMPORT job writes before its nodes join the tree: its node item marked with the
 * job's id (items.ts PENDING), and its edge item, marked too when it is a top node (its edge is
 * in the parent's collection, which reads leave out while the job is importing: reads.ts
 * queryChildren). The edges of the other nodes are in collections of nodes not in the tree yet.
 * `claimed`: the job claims it too, until it has written its projection (claims.ts).
 */
export function planPendingNode(
  tx: TransactionBuilder,
  node: TreeNode,
  jobId: string,
  top: boolean,
  claimed = false,
): void {
  tx.put({ ...nodeItem(node, 1), [PENDING]: jobId, ...(claimed ? { [CLAIM]: jobId } : {}) }, { notExists: true });
  tx.put({ ...edgeItem(node, 1), ...(top ? { [PENDING]: jobId } : {}) }, { notExists: true });
}

/**
 * An IMPORT job's top nodes join `parent` (null: the roots), their edges written already: the
 * parent's childCount up by their number. The caller turns the job's entry in the list of open
 * jobs from importing to joined in the same transaction.
 */
export function planJoin(
  tx: TransactionBuilder,
  args: { parent: StoredNode | null; count: number; copies: CopiesOf },
): void {
  if (args.parent) bumpChildCount(tx, args.parent, args.count, args.copies);
}

/** A joined top node's edge loses the IMPORT job's mark (it meant nothing once the job joined). */
export function planUnmarkEdge(tx: TransactionBuilder, node: TreeNode): void {
  tx.update(edgeKey(node), { remove: [PENDING] }, { exists: true });
}

/**
 * New children join `parent` (null: the roots): their edge items, the parent's childCount up
 * by their number, and the guard on the neighbours of the slot they take.
 */
export function planAdopt(
  tx: TransactionBuilder,
  args: { parent: StoredNode | null; children: TreeNode[]; slot: Slot; copies: CopiesOf },
): void {
  for (const child of args.children) tx.put(edgeItem(child, 1), { notExists: true });
  if (args.parent) bumpChildCount(tx, args.parent, args.children.length, args.copies);
  guardSlot(tx, args.slot);
}

/**
 * Removes a node an IMPORT job wrote and gave up (its node item still marked by the job), with
 * the other items it wrote for it.
 */
export function planRemovePending(tx: TransactionBuilder, node: TreeNode, jobId: string, others: Key[]): void {
  tx.delete(nodeKey(node.id), { equals: [PENDING, jobId] });
  for (const key of others) tx.delete(key);
}

export function planUpdate(
  tx: TransactionBuilder,
  args: { target: StoredNode; name?: string | null; data?: JsonObject | null; now: string; copies: CopiesOf },
): TreeNode {
  const { target, now } = args;
  const updated: TreeNode = {
    ...target.node,
    name: args.name ?? target.node.name,
    data: args.data === undefined ? target.node.data : args.data,
    version: target.node.version + 1,
    updatedAt: now,
  };
  const set: Record<string, unknown> = { name: updated.name, version: updated.version, updatedAt: now };
  if (updated.data !== null) set.data = updated.data;
  const update = { set, add: { rev: 1 }, remove: updated.data === null ? ['data'] : [] };
  changeNode(tx, target, update, args.copies(target), ...unchangedSince(target));
  return updated;
}

export function planMove(
  tx: TransactionBuilder,
  args: {
    moving: StoredNode;
    oldParent: StoredNode | null;
    /** The new parent's chain, root first, new parent last; empty for a move to root. */
    chain: StoredNode[];
    slot: Slot;
    now: string;
    copies: CopiesOf;
  },
): TreeNode {
  const { moving, oldParent, chain, slot, now, copies } = args;
  const newParent = chain[chain.length - 1] ?? null;
  const moved: TreeNode = {
    ...moving.node,
    parentId: newParent ? newParent.node.id : null,
    position: slot.position,
    version: moving.node.version + 1,
    updatedAt: now,
  };
  tx.update(nodeKey(moving.node.id), { ...movedFields(moved), add: { rev: 1 } }, ...unchangedSince(moving));
  tx.delete(edgeKey(moving.node), { exists: true });
  tx.put(edgeItem(moved, moving.rev + 1), { notExists: true });
  if (oldParent?.node.id !== newParent?.node.id) {
    if (oldParent) bumpChildCount(tx, oldParent, -1, copies);
    if (newParent) bumpChildCount(tx, newParent, 1, copies);
  }
  guardSlot(tx, slot);
  return moved;
}

/** What a move changes of the moved node's fields, as an update of its items. */
function movedFields(moved: TreeNode): UpdateSpec {
  const set: Record<string, unknown> = { position: moved.position, version: moved.version, updatedAt: moved.updatedAt };
  if (moved.parentId !== null) set.parentId = moved.parentId;
  return { set, remove: moved.parentId === null ? ['parentId'] : [] };
}

/**
 * The moved node's copies where they are (a reorder that leaves the node's place as it is, or
 * a move whose projection a job rewrites) get its new fields. Otherwise the move rewrites them
 * with the projection (projectionPlans.planProjectionMove).
 */
export function planMovedCopies(tx: TransactionBuilder, moving: StoredNode, moved: TreeNode, copies: CopiesOf): void {
  for (const { key } of copies(moving)) tx.update(key, movedFields(moved), { exists: true });
}

/** Deletes a whole subtree in one transaction (it must fit: 2 actions a node, 2 for the parent). */
export function planDeleteSubtree(
  tx: TransactionBuilder,
  args: { root: StoredNode; descendants: StoredNode[]; parent: StoredNode | null; copies: CopiesOf },
): void {
  for (const stored of [args.root, ...args.descendants]) {
    tx.delete(nodeKey(stored.node.id), ...unchangedSince(stored));
    tx.delete(edgeKey(stored.node), { exists: true });
  }
  if (args.parent) bumpChildCount(tx, args.parent, -1, args.copies);
}

/**
 * The accepting step of a delete too big for one transaction, once the job claimed the subtree:
 * the root leaves its parent's children and is marked as deleting (so it reads as absent). The
 * caller accepts the job (planJobAccept) in the same transaction; any process can resume it.
 */
export function planDetachForDelete(
  tx: TransactionBuilder,
  args: { root: StoredNode; parent: StoredNode | null; jobId: string; copies: CopiesOf },
): void {
  const { root, parent, jobId } = args;
  tx.update(nodeKey(root.node.id), { set: { deleting: jobId }, add: { rev: 1 } }, ...unchangedSince(root));
  tx.delete(edgeKey(root.node), { exists: true });
  if (parent) bumpChildCount(tx, parent, -1, args.copies);
}

/** Deletes nodes a delete job claims (children before parents, so no orphan ever exists). */
export function planDeleteClaimed(
  tx: TransactionBuilder,
  args: { nodes: StoredNode[]; jobId: string; rootId: string },
): void {
  for (const stored of args.nodes) {
    tx.delete(nodeKey(stored.node.id), { equals: ['claim', args.jobId] });
    // The root's edge went with the detach step.
    if (stored.node.id !== args.rootId) tx.delete(edgeKey(stored.node));
  }
}

/**
 * The key of `node`'s path key item; null when its type has no path key (or no node types are
 * declared), or it is a root: a path starts below a node, so roots need none.
 */
function keyOf(ctx: Pick<EngineContext, 'typedData'>, node: TreeNode | null): Key | null {
  if (node?.parentId == null) return null;
  const value = ctx.typedData?.pathKeyOf(node);
  return value ? pathKeyKey(node.parentId, value) : null;
}

/**
 * The path key items of a node's write: `before` as read (null: a create), `after` as written
 * (null: a delete). The value it takes is claimed on the condition that no sibling holds it;
 * the value it leaves becomes a marker naming it (or goes, with a delete).
 */
export function planPathKeys(
  tx: TransactionBuilder,
  ctx: Pick<EngineContext, 'typedData' | 'changeRetentionMs'>,
  before: TreeNode | null,
  after: TreeNode | null,
): void {
  const was = keyOf(ctx, before);
  const is = keyOf(ctx, after);
  if (was && is && keyString(was) === keyString(is)) return;
  const id = (after ?? before)!.id;
  if (is) tx.put({ ...is, [LIVE]: id, id }, { missingOrEquals: [LIVE, id] });
  if (!was) return;
  if (!after) {
    tx.delete(was, { missingOrEquals: [LIVE, id] });
    return;
  }
  const expiresAt = Math.ceil((Date.parse(after.updatedAt) + ctx.changeRetentionMs) / 1000);
  tx.put({ ...was, id, movedAt: after.updatedAt, expiresAt }, { missingOrEquals: [LIVE, id] });
}
