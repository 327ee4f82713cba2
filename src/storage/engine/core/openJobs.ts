import { z } from 'zod';
import { decoderOf } from '../../../dynamodb/decodeItem.js';
import { JOBS_PK, OPEN_ENTRY_SK_PREFIX, OPEN_JOBS_SK, sortKeyOf, type Item, type Key } from '../../../dynamodb/keys.js';
import type { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import type { Job, JobKind } from '../../treeStore.js';

/**
 * The open jobs, and how every read and write stays consistent with them: one home for the
 * protocol. No item in it is named by every write, nor by every job: jobs in different trees, and
 * writes anywhere, share none of it.
 *
 * - **The entries.** Each open job has an entry of its own (openEntryKey: pk JOBS, sk
 *   ENTRY#<id>), put by the job's first transaction, changed by an import's join, and deleted by
 *   its last. Two jobs never write one entry, and no write but a job's writes any.
 * - **The summary** (OPEN_JOBS_KEY: pk JOBS, sk OPEN) is written alone, never inside a
 *   transaction, so writers meeting on it are serialized by DynamoDB and cancel nothing. It says
 *   until when reads must look for entries (`activeUntil`): a job about to start pushes it
 *   ACTIVE_SPAN_MS ahead when less than ACTIVE_MARGIN_MS is left (jobs/announceJob.ts). A read of
 *   nodes by id fetches the summary in the same BatchGet as the nodes, at no extra request
 *   (reads/visibleNodes.ts), and only while it is active Queries the entries (one more request). It
 *   also holds the reindex that runs (`reindex`, jobs/reindexLock.ts) and the strategy whose
 *   projection the table holds (`projection`).
 * - **Starting.** The summary and the nodes come in one BatchGetItem, whose items DynamoDB reads
 *   at slightly different instants. A job that found the summary inactive waits ANNOUNCE_WAIT_MS
 *   after activating it before its first transaction, so a read that met the summary before and a
 *   node after that transaction took longer than that: it reads again (readAgain). The entries are
 *   queried after the nodes were read: a job whose first transaction a node read shows is listed.
 * - **Fences at commit.** A write that read before a job started must not commit after it where
 *   the job works. What stops it is on the nodes the job works on: a move or delete job claims
 *   every node of its subtree before it is accepted, and an import the nodes it adds (claims.ts);
 *   a write names its new parent and the nodes it moves or deletes, and fails on a claim. A
 *   claiming job's entry says so (`claiming`): until it is accepted, nothing of its change is
 *   applied and reads pass it by. A reindex needs no fence of its own: it places each node on the
 *   condition that what its place was computed from did not change (jobs/reindexJob.ts), and
 *   writes condition on the nodes they change.
 * - **The closing grace.** A job waits FINISH_GRACE_MS after its last chunk before it closes
 *   (jobs/commitChunk.ts): a read that could have met a node before the job's last chunk and the
 *   entries after the job closed would have spanned more than that. A read that took more than
 *   READ_SPAN_MS, half of it, while the summary is active reads its nodes again after the
 *   entries (readAgain).
 *
 * The rest is pure: what a read must hide and how it must translate. A move job has committed
 * the truth (the moved node's parent, edges and counts) and rewrites the projection of the
 * subtree (each node's kept path and items) in chunks. Until it is done, a node of the subtree
 * keeps either its old path (`from`, then the moved node, then the rest) or its new one (`to`,
 * then the moved node, then the rest); either way the moved node is in it, and the path after
 * the move is `to` followed by the path from the moved node on.
 */
export const OPEN_JOBS_KEY: Key = { pk: JOBS_PK, sk: OPEN_JOBS_SK };

/** The key of a job's entry among the open jobs. */
export const openEntryKey = (jobId: string): Key => ({ pk: JOBS_PK, sk: `${OPEN_ENTRY_SK_PREFIX}${jobId}` });

/**
 * How far ahead a starting job pushes the summary's `activeUntil`: reads look for entries while
 * jobs run and this long after (one more request each).
 */
export const ACTIVE_SPAN_MS = 2 * 60_000;
/** A starting job pushes `activeUntil` when less than this is left of it (far more than CLOCK_SKEW_MS). */
export const ACTIVE_MARGIN_MS = 60_000;
/** How long a job that activated the summary waits before its first transaction. */
export const ANNOUNCE_WAIT_MS = 250;
/** How long a job waits after its last chunk before it closes. */
export const FINISH_GRACE_MS = 200;
/** A read that took longer than this while jobs run reads its nodes again. */
export const READ_SPAN_MS = FINISH_GRACE_MS / 2;
/** How far apart the clocks of two processes may be. */
export const CLOCK_SKEW_MS = 5000;

/** Whether reads must look for the entries of open jobs: the summary is active at `now`. */
export const isActive = (open: Pick<OpenJobs, 'activeUntil'>, now: number): boolean => open.activeUntil > now;

/**
 * Whether a read of nodes that started at `started` (epoch ms) and took `span` ms must read
 * again: it may have met the summary before a job started and a node after its first
 * transaction (`everything`: read the summary and the nodes again), or a node before a job's
 * last chunk and the entries after the job closed (`nodes`: read the nodes again).
 */
export function readAgain(open: OpenJobs, started: number, span: number): 'everything' | 'nodes' | undefined {
  if (!isActive(open, started)) return span > ANNOUNCE_WAIT_MS ? 'everything' : undefined;
  return span > READ_SPAN_MS ? 'nodes' : undefined;
}

export interface OpenMove {
  id: string;
  /** The moved node. */
  nodeId: string;
  /** Its ancestors before the move, root first. */
  from: string[];
  /** Its ancestors after the move, root first. */
  to: string[];
}

export interface OpenJobs {
  /** Until when (epoch ms, a starter's clock) reads must look for entries; 0 if never. */
  activeUntil: number;
  /** Roots of the subtrees being deleted. */
  deleting: Set<string>;
  /**
   * Moves, and imports whose nodes have joined the tree while their projection is written: as
   * a move of the parent to where it is (`from` and `to` both its ancestors), so that the reads
   * below and above it answer from the truth, and writes there wait.
   */
  moves: OpenMove[];
  /** The IMPORT jobs whose nodes have not joined the tree yet (their node items are `pending`). */
  importing: Set<string>;
  /** How many jobs are open, of every kind. */
  count: number;
  /**
   * The strategy whose projection the table holds, once a reindex named one (absent before the
   * first reindex). A process of another strategy then finds none of its projection's items,
   * copies included, and writes the truth alone (`tree reindex` repairs, docs: switching).
   */
  projection?: string;
}

export const NO_OPEN_JOBS: OpenJobs = {
  activeUntil: 0,
  deleting: new Set(),
  moves: [],
  importing: new Set(),
  count: 0,
};

/** The attribute of the summary that holds OpenJobs.projection. */
export const PROJECTION = 'projection';

/**
 * A job's entry: what reads need of it. A move's (and a joined import's) `from` and `to`; a
 * delete's root (`nodeId`).
 */
export interface OpenEntry extends Pick<Job, 'id' | 'kind' | 'nodeId'> {
  from?: string[];
  to?: string[];
  /** A move or delete still claiming its subtree: nothing of it is applied yet (claims.ts). */
  claiming?: boolean;
  /** An import whose nodes joined the tree with no projection to write: nothing hidden, nothing to translate. */
  joined?: boolean;
}

/** Every kind of job, as stored: the compiler checks that none of JobKind is missing. */
const JOB_KINDS: { [kind in JobKind]: kind } = { MOVE: 'MOVE', DELETE: 'DELETE', REINDEX: 'REINDEX', IMPORT: 'IMPORT' };
/** A job's kind as stored, in its record and its entry. */
export const JOB_KIND = z.enum(JOB_KINDS);

const ids = z.array(z.string());

/**
 * The summary of the open jobs as stored (OPEN_JOBS_KEY): until when reads look for entries
 * (announceJob.ts), the reindex that runs and since when (reindexLock.ts), and the projection.
 */
export const OPEN_SUMMARY_ITEM = z.object({
  activeUntil: z.number().optional(),
  [PROJECTION]: z.string().optional(),
  reindex: z.string().optional(),
  reindexSince: z.number().optional(),
});

/** A job's entry as stored (openEntryKey): what planEntryOpen, planEntryAccept and planEntryJoin write. */
export const OPEN_ENTRY_ITEM = z.object({
  sk: z.string(),
  kind: JOB_KIND,
  nodeId: z.string().nullish(),
  from: ids.optional(),
  to: ids.optional(),
  joined: z.boolean().optional(),
  claiming: z.boolean().optional(),
});

const decodeSummary = decoderOf(OPEN_SUMMARY_ITEM);
const decodeEntry = decoderOf(OPEN_ENTRY_ITEM);

/** The summary as read, decoded (MalformedItem, naming its key, when it is not one); empty when never written. */
export const openSummaryOf = (item: Item | undefined): z.output<typeof OPEN_SUMMARY_ITEM> =>
  item ? decodeSummary(item) : {};

/** The first transaction of a job puts its entry. */
export function planEntryOpen(tx: TransactionBuilder, entry: OpenEntry): void {
  const { id, kind, nodeId, from, to, claiming } = entry;
  const fields = { ...(from ? { from } : {}), ...(to ? { to } : {}), ...(claiming ? { claiming } : {}) };
  tx.put({ ...openEntryKey(id), kind, nodeId, ...fields }, { notExists: true });
}

/** A claiming job is accepted: its entry becomes what reads see through (a move's `from` and `to`). */
export function planEntryAccept(tx: TransactionBuilder, entry: OpenEntry): void {
  const { from, to } = entry;
  tx.update(
    openEntryKey(entry.id),
    { set: { ...(from ? { from } : {}), ...(to ? { to } : {}) }, remove: ['claiming'] },
    { exists: true },
  );
}

/**
 * An import's join: its nodes are in the tree. With `place`, the job still writes their
 * projection, read as a move of the parent to where it is; without one, it is joined.
 */
export function planEntryJoin(
  tx: TransactionBuilder,
  jobId: string,
  place: { nodeId: string; ancestors: string[] } | undefined,
): void {
  const set = place ? { nodeId: place.nodeId, from: place.ancestors, to: place.ancestors } : { joined: true };
  tx.update(openEntryKey(jobId), { set }, { exists: true });
}

/** The last transaction of a job deletes its entry. */
export function planEntryClose(tx: TransactionBuilder, jobId: string): void {
  tx.delete(openEntryKey(jobId));
}

/** An entry item as read (undefined: not an entry), decoded (MalformedItem, naming its key, when it is not one). */
export function openEntryOf(item: Item | undefined): OpenEntry | undefined {
  if (!item || !sortKeyOf(item).startsWith(OPEN_ENTRY_SK_PREFIX)) return undefined;
  const { sk, kind, nodeId, from, to, joined, claiming } = decodeEntry(item);
  return {
    id: sk.slice(OPEN_ENTRY_SK_PREFIX.length),
    kind,
    nodeId: nodeId ?? null,
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(joined === true ? { joined: true } : {}),
    ...(claiming === true ? { claiming: true } : {}),
  };
}

/** The open jobs from the summary and the entries (none read while the summary is inactive). */
export function openJobsOf(summaryItem: Item | undefined, entryItems: readonly Item[] = []): OpenJobs {
  const summary = openSummaryOf(summaryItem);
  const all = entryItems.flatMap((item) => openEntryOf(item) ?? []);
  // A claiming job has applied nothing yet: only counted.
  const entries = all.filter((e) => !e.claiming);
  return {
    ...(summary[PROJECTION] !== undefined ? { projection: summary[PROJECTION] } : {}),
    activeUntil: summary.activeUntil ?? 0,
    deleting: new Set(entries.flatMap((e) => (e.kind === 'DELETE' && e.nodeId ? [e.nodeId] : []))),
    count: all.length,
    moves: entries.flatMap((e) =>
      (e.kind === 'MOVE' || e.kind === 'IMPORT') && e.nodeId && e.from && e.to
        ? [{ id: e.id, nodeId: e.nodeId, from: e.from, to: e.to }]
        : [],
    ),
    importing: new Set(entries.flatMap((e) => (e.kind === 'IMPORT' && !e.from && !e.joined ? [e.id] : []))),
  };
}

/** The open move whose subtree holds the node `id` with kept path `path` (the moved node included). */
export function moveOf(open: OpenJobs, id: string, path: readonly string[]): OpenMove | undefined {
  return open.moves.find((move) => move.nodeId === id || path.includes(move.nodeId));
}

/**
 * The node's path once the open moves are done: the kept path when no open move holds it, or
 * when it is neither the old nor the new place of the move (then the node was read after a
 * later write; see READ_SPAN_MS).
 */
export function settledPath(open: OpenJobs, id: string, path: string[]): string[] {
  const move = moveOf(open, id, path);
  if (!move) return path;
  const at = move.nodeId === id ? path.length : path.indexOf(move.nodeId);
  const above = path.slice(0, at);
  if (!sameIds(above, move.from) && !sameIds(above, move.to)) return path;
  return [...move.to, ...path.slice(at)];
}

const sameIds = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * The open move whose projection rewrite the descendants of `node` (settled path `path`) meet:
 * the node is in the moving subtree, or above its old or its new place.
 */
export function moveBelow(open: OpenJobs, id: string, path: readonly string[]): OpenMove | undefined {
  return moveOf(open, id, path) ?? open.moves.find((move) => move.to.includes(id) || move.from.includes(id));
}

/**
 * The open move whose subtree a structural write at node `id` (settled path `path`) overlaps:
 * the node is in a moving subtree, or a moving subtree lies below it. Such a write waits for
 * the job, then answers CONFLICT.
 */
export function overlappingMove(open: OpenJobs, id: string, path: readonly string[]): OpenMove | undefined {
  return moveOf(open, id, path) ?? open.moves.find((move) => move.to.includes(id));
}

/**
 * Whether the projection of strategy `name` can be answered from as it is: no subtree is being
 * deleted (its items are still there) or moved (its items are at the old place), and no reindex
 * gave the table another strategy's projection. Copies and bulk reads need it.
 */
export const projectionSettled = (open: OpenJobs, name: string): boolean =>
  open.moves.length === 0 && open.deleting.size === 0 && (open.projection ?? name) === name;
