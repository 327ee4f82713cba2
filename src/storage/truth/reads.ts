import { batchGetItems, keyString } from '../../dynamodb/batchGet.js';
import { ConditionFailed } from '../../dynamodb/transactWrite.js';
import { queryItems } from '../../dynamodb/query.js';
import { notFound } from '../../errors.js';
import { collectionPk, EDGE_PREFIX, nodeKey, storedFromItem, type StoredNode } from '../items.js';
import type { StoreContext } from './context.js';

/**
 * Strongly consistent reads of the truth (node items and edge items). Every read path that a
 * mutation can change reads the base table with ConsistentRead, so a client sees its own
 * writes from any process.
 */

/** Node items by id, in one BatchGet wave; nodes being deleted are included (see `deleting`). */
export async function readStored(ctx: StoreContext, ids: readonly string[]): Promise<Map<string, StoredNode>> {
  const items = await batchGetItems(ctx.doc, ctx.table, ids.map(nodeKey));
  const out = new Map<string, StoredNode>();
  for (const id of ids) {
    const item = items.get(keyString(nodeKey(id)));
    if (item) out.set(id, storedFromItem(item));
  }
  return out;
}

/** A live node (present and not being deleted), or NOT_FOUND. */
export function live(stored: Map<string, StoredNode>, id: string, what = 'node'): StoredNode {
  const node = stored.get(id);
  if (!node || node.deleting !== undefined) throw notFound(what, id);
  return node;
}

/**
 * The chain from the root down to `node` (inclusive), walking parent pointers one GetItem per
 * level. Bounded by the depth limit: a longer walk means a corrupt tree and fails loudly.
 */
export async function readChain(ctx: StoreContext, node: StoredNode): Promise<StoredNode[]> {
  const chain = [node];
  let parentId = node.node.parentId;
  while (parentId !== null) {
    if (chain.length > ctx.maxDepth + 8) {
      throw new Error(`parent chain of ${node.node.id} is longer than the depth limit allows`);
    }
    const parent = live(await readStored(ctx, [parentId]), parentId, 'ancestor');
    chain.unshift(parent);
    parentId = parent.node.parentId;
  }
  return chain;
}

/** Every child of a parent (edge copies), in sibling order. */
export async function readChildren(ctx: StoreContext, parentId: string | null): Promise<StoredNode[]> {
  const { items } = await queryItems(ctx.doc, {
    TableName: ctx.table,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :edge)',
    ExpressionAttributeValues: { ':pk': collectionPk(parentId), ':edge': EDGE_PREFIX },
  });
  return items.map(storedFromItem);
}

/**
 * The sibling next to position `fromSk` in a parent's collection, in `direction`, skipping
 * `skipId` (the node being placed). fromSk null with 'before' means the last child.
 */
export async function readAdjacent(
  ctx: StoreContext,
  parentId: string | null,
  fromSk: string | null,
  direction: 'before' | 'after',
  skipId: string,
): Promise<StoredNode | null> {
  const range =
    fromSk === null
      ? 'begins_with(sk, :start)'
      : direction === 'before'
        ? 'sk BETWEEN :start AND :from'
        : 'sk BETWEEN :from AND :end';
  const { items } = await queryItems(
    ctx.doc,
    {
      TableName: ctx.table,
      KeyConditionExpression: `pk = :pk AND ${range}`,
      ExpressionAttributeValues: {
        ':pk': collectionPk(parentId),
        ...(fromSk === null || direction === 'before' ? { ':start': EDGE_PREFIX } : { ':end': EDGE_END }),
        ...(fromSk === null ? {} : { ':from': fromSk }),
      },
      ScanIndexForward: direction === 'after',
    },
    3,
  );
  const found = items.find((item) => item.sk !== fromSk && item.id !== skipId);
  return found ? storedFromItem(found) : null;
}

/** Sorts just above every edge sort key ('$' follows '#'). */
const EDGE_END = 'E$';

/**
 * The subtree below `root`, breadth first, one wave of child Queries per level and no Query
 * for a node whose childCount is 0. Stops after `maxLevels` levels below the root. A subtree
 * that changed while it was read fails with ConditionFailed, for the writer to re-plan.
 */
export async function readSubtreeLevels(
  ctx: StoreContext,
  root: StoredNode,
  maxLevels: number = Number.POSITIVE_INFINITY,
): Promise<StoredNode[][]> {
  const levels: StoredNode[][] = [];
  const seen = new Set([root.node.id]);
  let frontier = [root];
  while (levels.length < maxLevels) {
    const parents = frontier.filter((s) => s.node.childCount > 0);
    if (parents.length === 0) break;
    const next = (await Promise.all(parents.map((p) => readChildren(ctx, p.node.id)))).flat();
    if (next.length === 0) break;
    // A node met twice moved inside the subtree between two level reads: read again.
    if (next.some((s) => seen.has(s.node.id) || !seen.add(s.node.id))) throw new ConditionFailed([]);
    if (levels.length > ctx.maxDepth + 8) {
      throw new Error(`subtree of ${root.node.id} is deeper than the depth limit allows`);
    }
    levels.push(next);
    frontier = next;
  }
  return levels;
}
