import { ConditionFailed } from '../../../../dynamodb/conditionFailed.js';
import { keyString, pathKeyKey, PATH_KEY_SK_PREFIX, type Item, type Key } from '../../../../dynamodb/keys.js';
import { TransactionBuilder } from '../../../../dynamodb/transactionBuilder.js';
import { isTreeError } from '../../../../errors.js';
import type { EngineContext } from '../../core/engineContext.js';
import { LIVE, nodeKey, storedFromItem } from '../../core/items.js';
import { commitChunk } from '../commitChunk.js';
import type { Lease } from '../jobRecord.js';

/**
 * A reindex's last pass under the node types (docs/contract.md, "Paths"): the path key value of
 * each node of the scan that no path key item holds for it (its type was given its @pathKey after
 * the node was written) is claimed now, each in a transaction of its own, on the condition that
 * the value is still free and the node unchanged since the scan. A value a sibling holds (two
 * siblings written with one value before the @pathKey) stays the sibling's, and a node changed
 * meanwhile was claimed by its own write: both are passed over, for `tree verify` to name.
 */
export async function claimPathKeys(
  ctx: EngineContext,
  lease: Lease,
  scan: { items: ReadonlyArray<Item & Key>; nodes: ReadonlyMap<string, Item> },
): Promise<void> {
  const typed = ctx.typedData;
  if (!typed) return;
  const held = new Set(
    scan.items.filter((i) => i.sk.startsWith(PATH_KEY_SK_PREFIX) && i[LIVE] !== undefined).map((i) => keyString(i)),
  );
  for (const item of scan.nodes.values()) {
    const { node, rev } = storedFromItem(item);
    const value = node.parentId === null ? null : typed.pathKeyOf(node);
    if (!value) continue;
    const key = pathKeyKey(node.parentId!, value);
    if (held.has(keyString(key))) continue;
    held.add(keyString(key));
    const tx = new TransactionBuilder(ctx.table)
      .put({ ...key, [LIVE]: node.id, id: node.id }, { missingOrEquals: [LIVE, node.id] })
      .check(nodeKey(node.id), { equals: ['rev', rev] });
    try {
      await commitChunk(ctx, tx, lease);
    } catch (error) {
      if (!(error instanceof ConditionFailed) && !isTreeError(error, 'ALREADY_EXISTS')) throw error;
    }
  }
}
