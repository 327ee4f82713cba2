import { z } from 'zod';
import { decodeItem, decoderOf, jsonText } from '../../../dynamodb/decodeItem.js';
import type { Item, Key } from '../../../dynamodb/keys.js';
import { CHANGE_HEAD_SK, CHANGE_SK_PREFIX, CHANGES_PK_PREFIX, HISTORY_SK_PREFIX } from '../../../dynamodb/keys.js';
import { diffPatch, mergePatch } from '../../../nodeTypes/typedData.js';
import type { TreeNode } from '../../treeStore.js';
import type { ChangeFacts, ChangeKind, ChangePlace, ChangeRecord } from '../../treeStore.js';

export type { ChangeFacts, ChangePlace, ChangeRecord } from '../../treeStore.js';

/**
 * Pure. The record of a change: one item in the change log of the tree it happened in, written
 * in the change's own transaction (recordChanges.ts), at the next number of that tree's sequence.
 * What live subscribers receive (in sequence order) and resume from, and what history lists.
 *
 *   pk C#<rootId>   sk HEAD          the tree's sequence: the last number handed out
 *   pk C#<rootId>   sk S#<seq>       a change (or a number given up: kind NONE)
 *   pk C#<nodeId>   sk H#<at>#<seq>  a copy of a change to the node, in the node's history
 *
 * A change records where its node was and where it is (the ancestors' ids, root first): a
 * subscriber to any subtree tells from them alone whether the change is in its window.
 */
/** A change to record in one tree's log; with `other`, the same change in a second tree's. */
export interface ChangeDraft {
  rootId: string;
  facts: ChangeFacts;
}

export const changePk = (rootId: string): string => `${CHANGES_PK_PREFIX}${rootId}`;
export const headKey = (rootId: string): Key => ({ pk: changePk(rootId), sk: CHANGE_HEAD_SK });
/** A tree's sequence as stored: the last number handed out (counted, and read, by dynamodb/counter.ts nextCount). */
export const CHANGE_HEAD_ITEM = z.object({ seq: z.number() });
/** Sequence numbers as 15 digits: sort keys sort as numbers do, far beyond any tree's lifetime. */
export const seqSk = (seq: number): string => `${CHANGE_SK_PREFIX}${String(seq).padStart(15, '0')}`;
export const changeKey = (rootId: string, seq: number): Key => ({ pk: changePk(rootId), sk: seqSk(seq) });

/** The key of the copy of a change in its node's history (in the same collection as a tree's log: `C#<id>`). */
export const historyKey = (record: ChangeRecord): Key => ({
  pk: changePk(record.nodeId),
  sk: `${HISTORY_SK_PREFIX}${record.at}#${seqSk(record.seq)}#${record.rootId}`,
});

/**
 * Whether a change belongs in its node's history: every change but a job's progress and the
 * end of a move or a delete (their change was recorded when the job was accepted); the end of
 * an import is when its nodes joined the tree, a bulk create.
 */
export const inHistory = (facts: ChangeFacts): boolean =>
  facts.kind !== 'JOB_PROGRESS' && (facts.kind !== 'JOB_DONE' || facts.job?.kind === 'IMPORT');

/** The fields of a node a change carries (a snapshot, not the strategy's stored fields). */
const NODE_FIELDS = [
  'id',
  'parentId',
  'name',
  'position',
  'version',
  'childCount',
  'data',
  'createdAt',
  'updatedAt',
  'incarnation',
  'type',
] as const;

/**
 * The node's fields, its data as JSON text: a node's data may nest as deep as DynamoDB allows
 * an attribute to, and in the record it would sit two levels deeper.
 */
const snapshot = (node: TreeNode): Record<string, unknown> => ({
  ...Object.fromEntries(NODE_FIELDS.map((field) => [field, node[field] ?? null])),
  data: node.data == null ? null : JSON.stringify(node.data),
});

/**
 * What a change with a node before and after keeps of the one before (an update, a move): its
 * fields that differ from the node after, and of its data only what changed, as the JSON merge
 * patch that gives it back from the data after (`dataPatch`; its whole `data` when no patch can
 * say it). An update of one field of a big node records that field twice, not the node.
 */
function changedFrom(prior: TreeNode, node: TreeNode): Record<string, unknown> {
  const before = snapshot(prior);
  const after = snapshot(node);
  const was = Object.fromEntries(
    NODE_FIELDS.filter((field) => field !== 'data' && before[field] !== after[field]).map((f) => [f, before[f]]),
  );
  if (before.data === after.data) return was;
  const patch = prior.data && node.data ? diffPatch(node.data, prior.data) : null;
  return { ...was, ...(patch ? { dataPatch: JSON.stringify(patch) } : { data: before.data }) };
}

/** The item of change `record`, kept until `expiresAt` (epoch seconds: the table's TTL attribute). */
export function changeItem(record: ChangeRecord, expiresAt: number): Item & Key {
  const { rootId, seq, node, prior, other, ...rest } = record;
  return {
    ...changeKey(rootId, seq),
    ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
    rootId,
    seq,
    ...(node ? { node: snapshot(node) } : {}),
    ...(prior && node ? { was: changedFrom(prior, node) } : prior ? { prior: snapshot(prior) } : {}),
    ...(other ? { otherRoot: other.rootId, otherSeq: other.seq } : {}),
    expiresAt,
  };
}

/** The copy of change `record` in its node's history, kept as long. */
export const historyItem = (record: ChangeRecord, expiresAt: number): Item & Key => ({
  ...changeItem(record, expiresAt),
  ...historyKey(record),
});

/** The item that gives up number `seq` of a tree's sequence: its write never committed. */
export const givenUpItem = (rootId: string, seq: number, expiresAt: number): Item & Key => ({
  ...changeKey(rootId, seq),
  rootId,
  seq,
  kind: 'NONE',
  expiresAt,
});

/** Every kind of change recorded: the compiler checks that none of ChangeKind is missing. */
const KINDS: { [kind in ChangeKind]: kind } = {
  CREATED: 'CREATED',
  UPDATED: 'UPDATED',
  MOVED: 'MOVED',
  DELETED: 'DELETED',
  RESTORED: 'RESTORED',
  COPIED: 'COPIED',
  JOB_PROGRESS: 'JOB_PROGRESS',
  JOB_DONE: 'JOB_DONE',
};

/** Where a node was or is, as a change keeps it (ChangePlace). */
const PLACE = z.object({ parentId: z.string().nullish(), path: z.array(z.string()).optional() });

/** A node as a change keeps it (snapshot): null where the node has no value, its data as JSON text. */
const SNAPSHOT = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  name: z.string(),
  position: z.string(),
  version: z.number(),
  childCount: z.number(),
  data: jsonText(z.record(z.string(), z.unknown())).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  // Absent from the records written before stamps.
  incarnation: z.string().nullish(),
  type: z.string().nullish(),
});

/** The node before a change, as its differences from the node after (changedFrom). */
const WAS = SNAPSHOT.partial().extend({ dataPatch: jsonText(z.record(z.string(), z.unknown())).optional() });

/** What every item of a tree's log holds: its tree and number, and its time to live. */
const NUMBERED = z.object({ rootId: z.string(), seq: z.number(), expiresAt: z.number() });

/**
 * An item of a tree's log (`S#<seq>`), or a copy in a node's history (`H#...`): a change, or a
 * number given up (kind NONE). Decoded by changeFromItem.
 */
export const CHANGE_ITEM = z.discriminatedUnion('kind', [
  NUMBERED.extend({ kind: z.literal('NONE') }),
  NUMBERED.extend({
    kind: z.enum(KINDS),
    nodeId: z.string(),
    at: z.string(),
    by: z.string().nullish(),
    node: SNAPSHOT.optional(),
    prior: SNAPSHOT.optional(),
    was: WAS.optional(),
    from: PLACE.optional(),
    to: PLACE.optional(),
    count: z.number().nullish(),
    job: z.object({ id: z.string(), kind: z.string(), status: z.string() }).optional(),
    otherRoot: z.string().optional(),
    otherSeq: z.number().optional(),
  }),
]);

/** The node of a snapshot (an incarnation only where it had one). */
const nodeOf = ({ incarnation, type, ...node }: z.output<typeof SNAPSHOT>): TreeNode => ({
  ...node,
  ...(incarnation == null ? {} : { incarnation }),
  ...(type == null ? {} : { type }),
});

/** The node before a change, from the node after and what it kept of the one before (changedFrom). */
function priorOf(
  node: z.output<typeof SNAPSHOT>,
  { dataPatch, ...was }: z.output<typeof WAS>,
): z.output<typeof SNAPSHOT> {
  const data = dataPatch ? mergePatch(node.data ?? {}, dataPatch) : 'data' in was ? was.data : node.data;
  return { ...node, ...was, data: data ?? null };
}

const placeOf = (place: z.output<typeof PLACE>): ChangePlace => ({
  parentId: place.parentId ?? null,
  path: place.path ?? [],
});

/**
 * A change item read back, decoded by CHANGE_ITEM (MalformedItem, naming its key, when it is not
 * one); null for a number given up.
 */
export function changeFromItem(item: Item): ChangeRecord | null {
  const stored = decodeItem(CHANGE_ITEM, item);
  if (stored.kind === 'NONE') return null;
  const { node, from, to, count, job, otherRoot, otherSeq } = stored;
  const prior = stored.was && node ? priorOf(node, stored.was) : stored.prior;
  return {
    kind: stored.kind,
    nodeId: stored.nodeId,
    rootId: stored.rootId,
    seq: stored.seq,
    at: stored.at,
    by: stored.by ?? null,
    ...(node ? { node: nodeOf(node) } : {}),
    ...(prior ? { prior: nodeOf(prior) } : {}),
    ...(from ? { from: placeOf(from) } : {}),
    ...(to ? { to: placeOf(to) } : {}),
    ...(count != null ? { count } : {}),
    ...(job ? { job } : {}),
    ...(otherRoot !== undefined && otherSeq !== undefined ? { other: { rootId: otherRoot, seq: otherSeq } } : {}),
  };
}

const decodeSeq = decoderOf(NUMBERED.pick({ seq: true }));

/** The sequence number of a change item (a record's, or one given up), decoded. */
export const seqOf = (item: Item): number => decodeSeq(item).seq;
