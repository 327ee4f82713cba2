import type { Item, Key } from '../../../dynamodb/keys.js';
import { CHANGE_HEAD_SK, CHANGE_SK_PREFIX, CHANGES_PK_PREFIX } from '../../../dynamodb/keys.js';
import type { TreeNode } from '../../treeStore.js';
import type { ChangeFacts, ChangePlace, ChangeRecord } from '../../treeStore.js';

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
/** Sequence numbers as 15 digits: sort keys sort as numbers do, far beyond any tree's lifetime. */
export const seqSk = (seq: number): string => `${CHANGE_SK_PREFIX}${String(seq).padStart(15, '0')}`;
export const changeKey = (rootId: string, seq: number): Key => ({ pk: changePk(rootId), sk: seqSk(seq) });

/** The sort keys of a node's history: newest last, so read backwards. */
export const HISTORY_SK_PREFIX = 'H#';
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
] as const;

/**
 * The node's fields, its data as JSON text: a node's data may nest as deep as DynamoDB allows
 * an attribute to, and in the record it would sit two levels deeper.
 */
const snapshot = (node: TreeNode): Record<string, unknown> => ({
  ...Object.fromEntries(NODE_FIELDS.map((field) => [field, node[field] ?? null])),
  data: node.data == null ? null : JSON.stringify(node.data),
});

/** The item of change `record`, kept until `expiresAt` (epoch seconds: the table's TTL attribute). */
export function changeItem(record: ChangeRecord, expiresAt: number): Item & Key {
  const { rootId, seq, node, prior, other, ...rest } = record;
  return {
    ...changeKey(rootId, seq),
    ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
    rootId,
    seq,
    ...(node ? { node: snapshot(node) } : {}),
    ...(prior ? { prior: snapshot(prior) } : {}),
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

/** A change item read back; null for a number given up. */
export function recordOf(item: Item): ChangeRecord | null {
  if (item.kind === 'NONE') return null;
  const place = (value: unknown): ChangePlace | undefined =>
    value && typeof value === 'object'
      ? {
          parentId: (value as ChangePlace).parentId ?? null,
          path: [...((value as ChangePlace).path ?? [])],
        }
      : undefined;
  const stored = (value: unknown): TreeNode | undefined => {
    const node = value as (Omit<TreeNode, 'data'> & { data: string | null }) | undefined;
    return node && { ...node, data: node.data === null ? null : (JSON.parse(node.data) as TreeNode['data']) };
  };
  const node = stored(item.node);
  const prior = stored(item.prior);
  return {
    kind: item.kind as ChangeRecord['kind'],
    nodeId: String(item.nodeId),
    rootId: String(item.rootId),
    seq: Number(item.seq),
    at: String(item.at),
    by: (item.by as string | undefined) ?? null,
    ...(node ? { node } : {}),
    ...(prior ? { prior } : {}),
    ...(item.from ? { from: place(item.from) } : {}),
    ...(item.to ? { to: place(item.to) } : {}),
    ...(item.count != null ? { count: Number(item.count) } : {}),
    ...(item.job ? { job: item.job as ChangeRecord['job'] } : {}),
    ...(typeof item.otherRoot === 'string' ? { other: { rootId: item.otherRoot, seq: Number(item.otherSeq) } } : {}),
  };
}

/** The sequence number of a change item's sort key. */
export const seqOf = (item: Item): number => Number(item.seq);
