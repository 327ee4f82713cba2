import type { Condition, TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import type { StoredNode } from '../../strategy.js';
import { nodeKey } from './items.js';

/**
 * Pure builders of claims: what keeps writes out of a subtree that an open job works on, at
 * commit, with no item that every write of a tree or of a tenant must name.
 *
 * A job that moves or deletes a subtree too big for one transaction, and an import whose nodes
 * get their projection after they joined the tree, **claims every node of it** before its change
 * is applied: the node item's `claim` names the job (jobs/claimSubtree.ts: level by level from the
 * subtree's root, each level's children read once the level is claimed, so a node added under a
 * node before its claim is read, and one added after cannot be: see below). Only then does the
 * job's accepting transaction apply the change (and the mutation answer); the job releases each
 * node when it is done with it (a move rewrites its projection, a delete deletes it), and a job
 * given up before it was accepted releases them all, deepest first.
 *
 * A claimed node is closed to every write, renames and data updates included (updateNode
 * conditions on no claim, and waits for the job like a structural write): a delete job keeps the
 * values it read when it claimed, and a move job's change is logged in one tree only.
 *
 * Every structural write names, at commit, the items it changes and reads, and nothing else:
 * - its new parent is claimed by no job (`planParentUnclaimed`): nothing lands in a claimed subtree;
 * - the node it moves or deletes is claimed by no job (`planNodeUnclaimed`), and so is every node
 *   of a subtree it moves or deletes in its own transaction: nothing leaves a claimed subtree,
 *   and no subtree holding a claimed one moves or goes (a claimed subtree's place is fixed until
 *   its job is done, so the job's `from` and `to` stay true).
 *
 * A write that read before a job claimed a node and commits after fails its condition, reads
 * again and meets the claim (it waits for the job: overlapWait.ts). A subtree is closed once
 * claimed, so the job's count of its nodes, its height (the depth limit) and its place (cycles)
 * cannot change until it is accepted. Writes elsewhere, in the same tree too, name none of it.
 */

/** The attribute of a node item that names the job claiming it. */
export const CLAIM = 'claim';

/** The node is claimed by no job. */
export const UNCLAIMED: Condition = { missing: CLAIM };

/** The node is claimed by job `jobId`. */
export const claimedBy = (jobId: string): Condition => ({ equals: [CLAIM, jobId] });

/** The claim on a node that a write reads (undefined: none, or the writer's own job's). */
export const otherClaim = (stored: StoredNode | null | undefined, own?: string): string | undefined =>
  stored?.claim !== undefined && stored.claim !== own ? stored.claim : undefined;

/**
 * Job `jobId` claims node `stored`: on the condition that it is as it was read (its `rev`: no
 * write of any kind committed since, a child added or moved in, a rename, a move away), and not
 * claimed by another job nor being deleted by another (a delete job's root carries its own mark:
 * items.ts `deleting`). So the node's children are the ones the claim walk reads next, and its
 * values the ones a delete job keeps: a write in between fails the claim, and the level is read
 * again.
 */
export function planClaimNode(tx: TransactionBuilder, stored: StoredNode, jobId: string): void {
  tx.update(
    nodeKey(stored.node.id),
    { set: { [CLAIM]: jobId } },
    { exists: true },
    { equals: ['rev', stored.rev] },
    { missingOrEquals: [CLAIM, jobId] },
    { missingOrEquals: ['deleting', jobId] },
  );
}

/** Job `jobId` releases node `id` (on the condition that it holds its claim). */
export function planReleaseNode(tx: TransactionBuilder, id: string, jobId: string): void {
  tx.update(nodeKey(id), { remove: [CLAIM] }, claimedBy(jobId));
}

/** The parent of a create or a move (null: the roots) is claimed by no job. */
export function planParentUnclaimed(tx: TransactionBuilder, parent: StoredNode | null | undefined): void {
  if (parent) tx.check(nodeKey(parent.node.id), UNCLAIMED);
}

/** The nodes a write moves or deletes are claimed by no job (or, for a job's own accepting transaction, by it). */
export function planNodeUnclaimed(tx: TransactionBuilder, nodes: readonly StoredNode[], own?: string): void {
  for (const stored of nodes) tx.check(nodeKey(stored.node.id), own === undefined ? UNCLAIMED : claimedBy(own));
}
