import { z } from 'zod';
import { getItem } from '../../../dynamodb/batchGet.js';
import { decodeItem } from '../../../dynamodb/decodeItem.js';
import { keyString, NODE_PK_PREFIX, PATH_KEY_SK_PREFIX, pathKeyKey, type Key } from '../../../dynamodb/keys.js';
import type { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { TreeError } from '../../../errors.js';
import type { TreeNode } from '../../treeStore.js';
import type { EngineContext } from './engineContext.js';

/**
 * Pure builders of path key items: what makes a path key (NODE_TYPES's `@pathKey`) unique among
 * siblings and a path a lookup (docs/contract.md, "Paths").
 *
 *   pk = N#<parentId>   sk = K#<value>   live = <id>   the child holding the value
 *                                                id = <id>     (without `live`: the child that
 *                                                              held it until it moved, kept for
 *                                                              the history's retention)
 *
 * Every write that gives a node a path key, or changes its value or parent, or deletes it,
 * writes the item in its own transaction on the condition that no other child holds the value
 * (`live` absent or the node's own): of two concurrent creates of one value under one parent,
 * one commits and the other fails its condition (ALREADY_EXISTS). The value a node leaves stays
 * as a marker naming it, so that an old path still finds the node (flagged as moved), until a
 * sibling takes the value or the marker expires. Nodes below a deleted one keep their items (in
 * their parents' collections, which no path reaches once the deleted node's item is gone): a
 * restore finds them as they were.
 */

/** The attribute naming the child that holds the value now. */
const LIVE = 'live';

/** A path key item as stored. */
export const PATH_KEY_ITEM = z.object({
  id: z.string(),
  live: z.string().optional(),
  movedAt: z.string().optional(),
  expiresAt: z.number().optional(),
});

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

/** Whether a key (as keyString writes it) is a path key item's. */
export const isPathKeyString = (key: string): boolean =>
  key.split('\u0000')[1]?.startsWith(PATH_KEY_SK_PREFIX) ?? false;

/**
 * The error of a write whose claim of a path key failed (`key`, as keyString writes it): another
 * child of the parent holds the value. ALREADY_EXISTS names the holder (read once, here).
 */
export async function pathKeyTaken(ctx: Pick<EngineContext, 'doc' | 'table'>, key: string): Promise<TreeError> {
  const [pk, sk] = key.split('\u0000') as [string, string];
  const value = sk.slice(PATH_KEY_SK_PREFIX.length);
  const parentId = pk.slice(NODE_PK_PREFIX.length);
  const item = await getItem(ctx.doc, ctx.table, { pk, sk });
  const holder = item ? decodeItem(PATH_KEY_ITEM, item).live : undefined;
  const by = holder ? ` by "${holder}"` : '';
  return new TreeError('ALREADY_EXISTS', `the path key "${value}" is taken under "${parentId}"${by}`, {
    id: holder ?? '',
    parentId,
    pathKey: value,
  });
}
