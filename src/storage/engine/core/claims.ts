import { claimsKey } from '../../../dynamodb/keys.js';
import type { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import type { OpenEntry } from './openJobs.js';

/**
 * Pure builders of a tree's claims: what keeps writes out of the parts of a tree that open jobs
 * work on, at commit, without any item that every write must touch.
 *
 * A move job (and an import once its nodes joined the tree, as a move of their parent to where
 * it is) claims a subtree while it rewrites its projection: the moved node's, from its first
 * transaction to its last; a delete job claims the subtree it deletes. The tree's claims item
 * (`claimsKey(rootId)`, one per tree, written only by the jobs of that tree) records it in the
 * same transactions:
 *
 * - `claim:<id>` = the job, for the claimed subtree's top node `id`, in the claims of its tree
 *   before the move and of its tree after (a write that read a chain before the job started
 *   still names the old root: the chain's stored path is stale until the job rewrites it);
 * - `below:<id>` = the set of move jobs claiming a subtree that lies below node `id` (each
 *   ancestor of the subtree's new place), in the claims of its tree after the move. A deleted
 *   subtree has left its tree: nothing lies below its ancestors any more.
 *
 * A structural write names the claims of the trees it reads, and only those: no node of its new
 * parent's chain is claimed (`planChainUnclaimed`), and the node it moves or deletes is in no
 * claimed subtree and has none below it (`planNodeUnclaimed`). A job that starts after the write
 * read its chain, and that the write would overlap, fails the write's condition; the write then
 * reads again and meets the job (it waits for it). Writes and jobs in other trees, and in other
 * parts of the same tree, change nothing these conditions read: they never make a write re-plan.
 */
export interface Claim {
  jobId: string;
  /** A move's (or a joined import's) claim, which its new ancestors know of; not a delete's. */
  below: boolean;
  /** The claimed subtree's top node. */
  nodeId: string;
  /** Its ancestors before the job's move, root first. */
  from: readonly string[];
  /** Its ancestors after it, root first. */
  to: readonly string[];
}

const claimName = (id: string): string => `claim:${id}`;
const belowName = (id: string): string => `below:${id}`;

/**
 * What an open job's entry claims: a subtree for a move job, a joined import or a delete job
 * (whose entry names the deleted root's ancestors as `from`); nothing otherwise.
 */
export function claimOf(entry: OpenEntry): Claim | undefined {
  if (entry.nodeId === null || !entry.from) return undefined;
  const { id: jobId, nodeId, from } = entry;
  if (entry.kind === 'DELETE') return { jobId, nodeId, from, to: from, below: false };
  return entry.to ? { jobId, nodeId, from, to: entry.to, below: true } : undefined;
}

/** The roots of the trees the claimed subtree was in and is in (the same one, or two). */
const rootsOf = (claim: Claim): { before: string; after: string } => ({
  before: claim.from[0] ?? claim.nodeId,
  after: claim.to[0] ?? claim.nodeId,
});

/** The job claims its subtree: in the transaction that starts it (or joins an import). */
export function planClaim(tx: TransactionBuilder, claim: Claim): void {
  const { before, after } = rootsOf(claim);
  const claimed = { [claimName(claim.nodeId)]: claim.jobId };
  const below = claim.below ? Object.fromEntries(claim.to.map((id) => [belowName(id), [claim.jobId]])) : {};
  tx.update(claimsKey(after), { set: claimed, addToSet: below });
  if (before !== after) tx.update(claimsKey(before), { set: claimed });
}

/** The job's claim ends: in its last transaction. */
export function planUnclaim(tx: TransactionBuilder, claim: Claim): void {
  const { before, after } = rootsOf(claim);
  const claimed = [claimName(claim.nodeId)];
  const below = claim.below ? Object.fromEntries(claim.to.map((id) => [belowName(id), [claim.jobId]])) : {};
  tx.update(claimsKey(after), { remove: claimed, deleteFromSet: below });
  if (before !== after) tx.update(claimsKey(before), { remove: claimed });
}

/** A write under `chain` (its ids, root first, the parent last): no node of it is claimed by a job. */
export function planChainUnclaimed(tx: TransactionBuilder, chain: readonly string[]): void {
  if (chain.length > 0) tx.check(claimsKey(chain[0]!), ...chain.map((id) => ({ missing: claimName(id) })));
}

/**
 * A write that moves or deletes node `id` (its kept path `path`, root first): the node is in no
 * claimed subtree (neither it nor an ancestor is claimed) and no claimed subtree lies below it.
 */
export function planNodeUnclaimed(tx: TransactionBuilder, id: string, path: readonly string[]): void {
  tx.check(claimsKey(path[0] ?? id), ...[...path, id].map((a) => ({ missing: claimName(a) })), {
    missing: belowName(id),
  });
}
