import { batchGetItems } from '../../dynamodb/batchGet.js';
import { keyString } from '../../dynamodb/keys.js';
import { keyQuery } from '../../dynamodb/keyQuery.js';
import { queryItems } from '../../dynamodb/query.js';
import { ConditionFailed } from '../../dynamodb/transactWrite.js';
import type { StoredNode } from '../strategy.js';
import type { TableContext } from './engineContext.js';
import { nodeKey, storedFromItem } from './items.js';
import { adjacentQuery, childrenQuery } from './readPlans.js';

/**
 * Strongly consistent reads of the truth (node items and edge items). Every read path that a
 * mutation can change reads the base table with ConsistentRead, so a client sees its own
 * writes from any process.
 */

/** Node items by id, in one BatchGet wave; nodes being deleted are included (see `deleting`). */
export async function readStored(ctx: TableContext, ids: readonly string[]): Promise<Map<string, StoredNode>> {
  const items = await batchGetItems(ctx.doc, ctx.table, ids.map(nodeKey));
  const out = new Map<string, StoredNode>();
  for (const id of ids) {
    const item = items.get(keyString(nodeKey(id)));
    if (item) out.set(id, storedFromItem(item));
  }
  return out;
}

/** Every child of a parent (edge copies), in sibling order. */
export async function readChildren(ctx: TableContext, parentId: string | null): Promise<StoredNode[]> {
  const { items } = await queryItems(ctx.doc, keyQuery(ctx.table, childrenQuery(parentId)));
  return items.map(storedFromItem);
}

/**
 * The sibling next to position `fromSk` in a parent's collection, in `direction`, skipping
 * `skipId` (the node being placed). fromSk null with 'before' means the last child.
 */
export async function readAdjacent(
  ctx: TableContext,
  parentId: string | null,
  fromSk: string | null,
  direction: 'before' | 'after',
  skipId: string,
): Promise<StoredNode | null> {
  const { items } = await queryItems(ctx.doc, keyQuery(ctx.table, adjacentQuery(parentId, fromSk, direction)), 3);
  const found = items.find((item) => item.sk !== fromSk && item.id !== skipId);
  return found ? storedFromItem(found) : null;
}

/**
 * The subtree below `root`, breadth first, one wave of child Queries per level and no Query
 * for a node whose childCount is 0. Stops after `maxLevels` levels below the root. A subtree
 * that changed while it was read fails with ConditionFailed, for the writer to re-plan.
 */
export async function readSubtreeLevels(
  ctx: TableContext,
  root: StoredNode,
  maxLevels: number = Number.POSITIVE_INFINITY,
): Promise<StoredNode[][]> {
  const levels: StoredNode[][] = [];
  const seen = new Set([root.node.id]);
  let frontier = [root];
  while (levels.length < maxLevels) {
    const next = await readLevelBelow(ctx, frontier, seen);
    if (next.length === 0) break;
    if (levels.length > ctx.maxTreeDepth + 8) {
      throw new Error(`subtree of ${root.node.id} is deeper than the depth limit allows`);
    }
    levels.push(next);
    frontier = next;
  }
  return levels;
}

/**
 * The children of `frontier` (edge copies), one wave of Queries, none for a node whose
 * childCount is 0. `seen` holds the ids met so far in the subtree: a node met twice moved
 * inside the subtree between two level reads, and fails with ConditionFailed (read again).
 */
export async function readLevelBelow(ctx: TableContext, frontier: StoredNode[], seen: Set<string>): Promise<StoredNode[]> {
  const parents = frontier.filter((s) => s.node.childCount > 0);
  const next = (await Promise.all(parents.map((p) => readChildren(ctx, p.node.id)))).flat();
  if (next.some((s) => seen.has(s.node.id) || !seen.add(s.node.id))) throw new ConditionFailed([]);
  return next;
}
