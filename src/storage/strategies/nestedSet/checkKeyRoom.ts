import { keyQuery } from '../../../dynamodb/keyQuery.js';
import { sortKeyOf } from '../../../dynamodb/keys.js';
import { forEachQueryPage } from '../../../dynamodb/query.js';
import { TreeError } from '../../../errors.js';
import type { Place, StrategyContext } from '../../strategy.js';
import { documentKey, MAX_SORT_KEY_BYTES, subtreeKeys } from './rangeKeys.js';

/**
 * Before a move job: whether every node of the moved subtree still has a document key within
 * DynamoDB's sort key limit at its new place. Each key of the subtree changes by the same number
 * of bytes, the moved node's; when that number is positive, the subtree's longest key is read (a
 * Query of its range, keys only; for a root, of its tree's collection). A job that met an
 * over-long key half-way could not finish: the move is refused with DEPTH_LIMIT before anything
 * is written.
 */
export async function checkKeyRoom(ctx: StrategyContext, id: string, from: Place, to: Place): Promise<void> {
  const oldKey = documentKey(id, from) ?? '';
  const newKey = documentKey(id, to);
  if (newKey === null) return; // to a root: every key gets shorter
  const growth = Buffer.byteLength(newKey) - Buffer.byteLength(oldKey);
  if (growth <= 0) return;
  const longest = Math.max(Buffer.byteLength(oldKey), await longestKey(ctx, id, from));
  if (longest + growth > MAX_SORT_KEY_BYTES) {
    throw new TreeError(
      'DEPTH_LIMIT',
      `moving "${id}" there would give a node of its subtree a document key of ${longest + growth} bytes, ` +
        "over DynamoDB's " +
        `${MAX_SORT_KEY_BYTES}-byte sort key; place it higher, or use another TREE_STRATEGY`,
      { depth: to.path.length, keyBytes: longest + growth, maxKeyBytes: MAX_SORT_KEY_BYTES },
    );
  }
}

/** The length in bytes of the longest sort key in a subtree's range, its pages read in turn. */
async function longestKey(ctx: StrategyContext, id: string, place: Place): Promise<number> {
  const base = keyQuery(ctx.table, subtreeKeys(id, place));
  const names = { ...base.ExpressionAttributeNames, '#sk': 'sk' };
  const query = { ...base, ProjectionExpression: '#sk', ExpressionAttributeNames: names };
  let longest = 0;
  await forEachQueryPage(ctx.doc, query, (items) => {
    for (const item of items) longest = Math.max(longest, Buffer.byteLength(sortKeyOf(item)));
  });
  return longest;
}
