import { getItem } from '../../../dynamodb/batchGet.js';
import { decodeItem } from '../../../dynamodb/decodeItem.js';
import { NODE_PK_PREFIX, PATH_KEY_SK_PREFIX } from '../../../dynamodb/keys.js';
import { TreeError } from '../../../errors.js';
import type { EngineContext } from '../core/engineContext.js';
import { PATH_KEY_ITEM } from '../core/items.js';

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
