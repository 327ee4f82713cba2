import { JOBS_PK, OPEN_JOBS_SK, type Item, type Key } from '../../../dynamodb/keys.js';
import type { Condition, TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import type { Job, JobKind } from '../../treeStore.js';

/**
 * The open jobs, and how every read and write stays consistent with them: one home for the
 * protocol.
 *
 * - **The list.** One item lists the open jobs (OPEN_JOBS_KEY: pk JOBS, sk OPEN; an attribute
 *   `job:<id>` per job), written with each job's first and last transaction. A read of nodes by
 *   id fetches it in the same BatchGet as the nodes (reads/liveNodes.ts), so that it hides the
 *   nodes of a subtree being deleted and of an import not joined yet, and translates those of a
 *   subtree being moved, at no extra request.
 * - **The claims, and the epoch.** The list and the nodes come in one BatchGetItem, whose items
 *   DynamoDB reads at slightly different instants, so a write could read the list from before a
 *   job's first transaction and a node from after it (moved, its path not yet rewritten). What
 *   keeps such a write from committing is written with the job, where the write looks at commit:
 *   a move job (or a joined import) claims its subtree in the claims item of its tree
 *   (claims.ts), which the writes in that tree name; a delete job or a reindex, which no tree
 *   claims, adds one to the list's `epoch`, which every structural write conditions on
 *   (planEpochUnchanged). A move job's start and end change no epoch: it makes no write re-plan
 *   outside what it claims.
 *   The list's `rev` counts all its changes (the job sweep and a reindex's start condition on it).
 * - **The closing grace.** A job waits FINISH_GRACE_MS after its last chunk before it closes
 *   (jobs/commitChunk.ts): a read that could have met a node before the job's last chunk and the
 *   list after the job closed would have spanned more than that. A read that took more than
 *   READ_SPAN_MS, half of it, while a job closed lately (within CLOCK_SKEW_MS, the processes'
 *   clocks being that far apart at most), reads its nodes again after the list (readAgain).
 *
 * The rest is pure: what a read must hide and how it must translate. A move job has committed
 * the truth (the moved node's parent, edges and counts) and rewrites the projection of the
 * subtree (each node's kept path and items) in chunks. Until it is done, a node of the subtree
 * keeps either its old path (`from`, then the moved node, then the rest) or its new one (`to`,
 * then the moved node, then the rest); either way the moved node is in it, and the path after
 * the move is `to` followed by the path from the moved node on.
 */
export const OPEN_JOBS_KEY: Key = { pk: JOBS_PK, sk: OPEN_JOBS_SK };

/** How long a job waits after its last chunk before it closes (and leaves the list). */
export const FINISH_GRACE_MS = 200;
/** A read that took longer than this while a job closed lately reads its nodes again. */
export const READ_SPAN_MS = FINISH_GRACE_MS / 2;
/** How far apart the clocks of two processes may be. */
export const CLOCK_SKEW_MS = 5000;

/**
 * Whether a read of nodes that started at `started` (epoch ms) and took `span` ms, with the
 * list of open jobs `open` read in the same BatchGet, must read its nodes again: it may have met
 * a node before a job's last chunk and the list after the job closed.
 */
export const readAgain = (open: OpenJobs, started: number, span: number): boolean =>
  span > READ_SPAN_MS && open.closedAt > started - CLOCK_SKEW_MS;

/** The condition that the list of open jobs is the one read (its `rev`; 0: never written). */
export const openJobsUnchanged = (rev: number): Condition => ({ equalsOrMissing: ['rev', rev === 0 ? null : rev] });

/** Conditions `tx` on no delete job or reindex having started since the list was read (its `epoch`). */
export function planEpochUnchanged(tx: TransactionBuilder, epoch: number): void {
  tx.check(OPEN_JOBS_KEY, { equalsOrMissing: ['epoch', epoch === 0 ? null : epoch] });
}

/** A delete job or a reindex starts: the epoch every structural write conditions on goes up. */
export const EPOCH_STEP = { epoch: 1 };

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
  /** Counts the changes to the list (the sweep and a reindex's start condition on it). */
  rev: number;
  /** Counts the starts of delete jobs and reindexes: every structural write conditions on it. */
  epoch: number;
  /** When a job last closed (epoch ms, the closing process's clock); 0 if never. */
  closedAt: number;
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
  rev: 0,
  epoch: 0,
  closedAt: 0,
  deleting: new Set(),
  moves: [],
  importing: new Set(),
  count: 0,
};

/** The attribute of the open-jobs item that holds OpenJobs.projection. */
export const PROJECTION = 'projection';

/** An entry of the open-jobs item: what reads need of one job. */
export interface OpenEntry extends Pick<Job, 'id' | 'kind' | 'nodeId'> {
  from?: string[];
  to?: string[];
}

const ENTRY_PREFIX = 'job:';
export const openEntryName = (jobId: string) => `${ENTRY_PREFIX}${jobId}`;

/** The entry's value as stored: no id (it is in the attribute's name). */
export function openEntryValue(job: OpenEntry): Record<string, unknown> {
  return { kind: job.kind, nodeId: job.nodeId, ...(job.from ? { from: job.from, to: job.to } : {}) };
}

const ids = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;

/** The entries of an OPEN_JOBS_KEY item. */
export function openEntriesOf(item: Item | undefined): OpenEntry[] {
  if (!item) return [];
  return Object.entries(item).flatMap(([name, value]) => {
    if (!name.startsWith(ENTRY_PREFIX) || value === null || typeof value !== 'object') return [];
    const entry = value as Record<string, unknown>;
    const from = ids(entry.from);
    const to = ids(entry.to);
    return [
      {
        id: name.slice(ENTRY_PREFIX.length),
        kind: entry.kind as JobKind,
        nodeId: typeof entry.nodeId === 'string' ? entry.nodeId : null,
        ...(from && to ? { from, to } : {}),
      },
    ];
  });
}

export function openJobsOf(item: Item | undefined): OpenJobs {
  const entries = openEntriesOf(item);
  return {
    ...(typeof item?.[PROJECTION] === 'string' ? { projection: item[PROJECTION] } : {}),
    rev: Number(item?.rev ?? 0),
    epoch: Number(item?.epoch ?? 0),
    closedAt: Number(item?.closedAt ?? 0),
    deleting: new Set(entries.flatMap((e) => (e.kind === 'DELETE' && e.nodeId ? [e.nodeId] : []))),
    count: entries.length,
    moves: entries.flatMap((e) =>
      (e.kind === 'MOVE' || e.kind === 'IMPORT') && e.nodeId && e.from && e.to
        ? [{ id: e.id, nodeId: e.nodeId, from: e.from, to: e.to }]
        : [],
    ),
    importing: new Set(entries.flatMap((e) => (e.kind === 'IMPORT' && !e.from ? [e.id] : []))),
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
