import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { batchGetItems, getItem } from '../../../dynamodb/batchGet.js';
import { keyQuery } from '../../../dynamodb/keyQuery.js';
import { decodeItem, jsonText } from '../../../dynamodb/decodeItem.js';
import {
  DELETED_ENTRY_SK,
  DELETED_LIST_PK,
  DELETED_PACK_SK_PREFIX,
  keyString,
  type Item,
  type Key,
} from '../../../dynamodb/keys.js';
import { queryItems } from '../../../dynamodb/query.js';
import type { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import type { StoredNode } from '../../strategy.js';
import type { TreeNode } from '../../treeStore.js';
import type { EngineContext } from '../core/engineContext.js';
import { changePk } from './changeRecord.js';

/**
 * The deleted subtrees kept to be restored (restoreNode, undo of a delete) for
 * UNDO_RETENTION_DAYS, beside the change logs:
 *
 *   pk C#<nodeId>     sk DELETED                 the entry of the subtree deleted at that node
 *   pk C#<nodeId>     sk DELETED#<token>#<n>     its nodes, parents first, packed (JSON): none
 *                                                for a leaf, which its entry holds whole
 *   pk C#*deleted     sk <at>#<nodeId>           the list of the tenant's entries, oldest first
 *
 * The entry and its place in the list are written in the delete's own transaction (for a delete
 * run as a job, its accepting one), so that every delete that commits can be restored; the packs
 * before it (a job's), under a token of that delete alone. A later delete of the same id replaces
 * the entry; the list item of the earlier one then names a token the entry no longer holds, and
 * is passed over. Time to live removes all of them.
 */

/** What a subtree deleted at a node keeps of it to be restored. */
export interface DeletedEntry {
  nodeId: string;
  token: string;
  /** The packs of its nodes, parents first, their fields as they were: none for a leaf (`node` holds it). */
  packs: number;
  count: number;
  /** The root as it was, and its ancestors' ids then, root first. */
  node: TreeNode;
  path: string[];
  at: string;
  by: string | null;
  /** Epoch seconds: past it, the subtree can no longer be restored. */
  expiresAt: number;
}

/** What the sort keys of the packs kept under `token` begin with. */
const packsOf = (token: string) => `${DELETED_PACK_SK_PREFIX}${token}#`;
const packSk = (token: string, n: number) => `${packsOf(token)}${String(n).padStart(6, '0')}`;
export const deletedEntryKey = (nodeId: string): Key => ({ pk: changePk(nodeId), sk: DELETED_ENTRY_SK });
const listKey = (entry: Pick<DeletedEntry, 'at' | 'nodeId'>): Key => ({
  pk: DELETED_LIST_PK,
  sk: `${entry.at}#${entry.nodeId}`,
});

/** A node as a deleted subtree keeps it (kept): its fields, null where it has no value. */
const KEPT_NODE = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  name: z.string(),
  data: z.record(z.string(), z.unknown()).nullable(),
  type: z.string().optional(),
  position: z.string(),
  version: z.number(),
  childCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  incarnation: z.string().optional(),
});

/** The entry of the subtree deleted at a node, as stored (DELETED). */
export const DELETED_ENTRY_ITEM = z.object({
  nodeId: z.string(),
  token: z.string(),
  packs: z.number(),
  count: z.number(),
  node: jsonText(KEPT_NODE),
  path: z.array(z.string()).optional(),
  at: z.string(),
  by: z.string().nullish(),
  expiresAt: z.number(),
});

/** A pack of a deleted subtree's nodes, as stored (DELETED#<token>#<n>): JSON text. */
export const DELETED_PACK_ITEM = z.object({ nodes: jsonText(z.array(KEPT_NODE)), expiresAt: z.number() });

/** The place of an entry in the list of deleted subtrees, as stored (C#*deleted, `<at>#<nodeId>`). */
export const DELETED_LIST_ITEM = z.object({
  sk: z.string(),
  nodeId: z.string(),
  token: z.string(),
  expiresAt: z.number(),
});

/**
 * The nodes of one pack as JSON text, in UTF-8 bytes as DynamoDB counts them (a CJK character is
 * 3 bytes and 1 UTF-16 unit, an emoji 4 and 2): with the pack's key and other attributes (under
 * 200 bytes) well under DynamoDB's 400 KB an item, and ten packs (putAll) under 4 MB. One node
 * that passes validation is at most about 70 KB, so a pack never needs to hold more.
 */
export const PACK_BYTES = 300_000;

/** The fields of a node kept (its place is given back by the restore). */
const kept = (node: TreeNode) => ({
  id: node.id,
  parentId: node.parentId,
  name: node.name,
  data: node.data ?? null,
  ...(node.type ? { type: node.type } : {}),
  position: node.position,
  version: node.version,
  childCount: node.childCount,
  createdAt: node.createdAt,
  updatedAt: node.updatedAt,
  ...(node.incarnation ? { incarnation: node.incarnation } : {}),
});

/**
 * Pure. The items that keep a subtree deleted at `root` (its nodes parents first): the packs,
 * then the entry and its list item; `bytes`, the UTF-8 bytes of the packs' nodes.
 */
export function deletedItems(
  ctx: Pick<EngineContext, 'undoRetentionMs' | 'by'>,
  subtree: { root: StoredNode; descendants: readonly StoredNode[]; path: readonly string[] },
  now = Date.now(),
): { packs: Array<Item & Key>; entry: Array<Item & Key>; bytes: number } {
  const token = randomUUID();
  const expiresAt = Math.ceil((now + ctx.undoRetentionMs) / 1000);
  const nodeId = subtree.root.node.id;
  const texts: string[][] = [[]];
  let size = 2; // the brackets of the pack's list
  let bytes = 0;
  for (const stored of [subtree.root, ...subtree.descendants]) {
    const text = JSON.stringify(kept(stored.node));
    const length = Buffer.byteLength(text) + 1; // and its comma
    if (size + length > PACK_BYTES && texts.at(-1)!.length > 0) {
      texts.push([]);
      size = 2;
    }
    texts.at(-1)!.push(text);
    size += length;
    bytes += length;
  }
  // A leaf's entry holds all of it (its `node`): no pack.
  const packs = (subtree.descendants.length === 0 ? [] : texts).map((pack, n) => ({
    pk: changePk(nodeId),
    sk: packSk(token, n),
    nodes: `[${pack.join(',')}]`,
    expiresAt,
  }));
  const at = new Date(now).toISOString();
  const entry = {
    ...deletedEntryKey(nodeId),
    nodeId,
    token,
    packs: packs.length,
    count: 1 + subtree.descendants.length,
    node: JSON.stringify(kept(subtree.root.node)),
    path: [...subtree.path],
    at,
    by: ctx.by ?? null,
    expiresAt,
  };
  return { packs, entry: [entry, { ...listKey({ at, nodeId }), nodeId, token, expiresAt }], bytes };
}

/** An entry as read, decoded by DELETED_ENTRY_ITEM (MalformedItem, naming its key, when it is not one). */
export function deletedEntryOf(item: Item): DeletedEntry {
  const stored = decodeItem(DELETED_ENTRY_ITEM, item);
  return { ...stored, path: stored.path ?? [], by: stored.by ?? null };
}

/** The entry of the subtree last deleted at node `id`, if it is kept (expired ones included: the caller tells). */
export async function readDeletedEntry(
  ctx: Pick<EngineContext, 'doc' | 'table'>,
  nodeId: string,
): Promise<DeletedEntry | null> {
  const item = await getItem(ctx.doc, ctx.table, deletedEntryKey(nodeId));
  return item ? deletedEntryOf(item) : null;
}

/** The nodes of a deleted subtree, parents first (one Query per 1 MB; none for a leaf, whose entry holds it). */
export async function readDeletedNodes(
  ctx: Pick<EngineContext, 'doc' | 'table'>,
  entry: DeletedEntry,
): Promise<TreeNode[]> {
  if (entry.packs === 0 && entry.count === 1) return [entry.node];
  const query = keyQuery(ctx.table, { pk: changePk(entry.nodeId), sk: { beginsWith: packsOf(entry.token) } });
  const { items } = await queryItems(ctx.doc, query, entry.packs);
  if (items.length !== entry.packs)
    throw new Error(`deleted subtree of ${entry.nodeId}: ${items.length} of ${entry.packs} packs`);
  return items.flatMap((item) => decodeItem(DELETED_PACK_ITEM, item).nodes);
}

/** Plans the end of a deleted subtree's entry (it was restored), on the condition that it is still that one. */
export function planDeletedEntryRemoved(tx: TransactionBuilder, entry: DeletedEntry): void {
  tx.delete(deletedEntryKey(entry.nodeId), { equals: ['token', entry.token] });
  tx.delete(listKey(entry));
}

/**
 * A page of the subtrees kept, newest first, after list key `after`: the entries still current
 * and not expired (the list's Query, then one BatchGet of their entries); `read`, the list items
 * read, and `last`, the key of the last of them (passed over or not), where the next read starts.
 */
export async function readDeletedPage(
  ctx: Pick<EngineContext, 'doc' | 'table'>,
  first: number,
  after: string | undefined,
): Promise<{
  entries: Array<{ entry: DeletedEntry; after: string }>;
  hasNextPage: boolean;
  read: number;
  last: string | undefined;
}> {
  const query = keyQuery(ctx.table, {
    pk: DELETED_LIST_PK,
    backwards: true,
    ...(after === undefined ? {} : { after }),
  });
  const { items, lastKey } = await queryItems(ctx.doc, query, first);
  const listed = items.map((item) => decodeItem(DELETED_LIST_ITEM, item));
  const keys = listed.map(({ nodeId }) => deletedEntryKey(nodeId));
  const found = await batchGetItems(ctx.doc, ctx.table, keys);
  const now = Date.now() / 1000;
  const entries = listed.flatMap(({ token, sk }, i) => {
    const item = found.get(keyString(keys[i]!));
    const entry = item && deletedEntryOf(item);
    if (!entry || entry.token !== token || entry.expiresAt < now) return [];
    return [{ entry, after: sk }];
  });
  return {
    entries,
    hasNextPage: lastKey !== undefined,
    read: items.length,
    last: listed.at(-1)?.sk,
  };
}
