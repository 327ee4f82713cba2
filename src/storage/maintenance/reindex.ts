import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchWrite, type WriteRequest } from '../../dynamodb/batchWrite.js';
import { keyString, REINDEX_PK, type Item, type Key } from '../../dynamodb/keys.js';
import { scanTable } from '../../dynamodb/scan.js';
import { TransactionBuilder, type Condition } from '../../dynamodb/transactionBuilder.js';
import { ConditionFailed, transactWrite, TRANSACTION_LIMIT } from '../../dynamodb/transactWrite.js';
import { batchGetItems } from '../../dynamodb/batchGet.js';
import { readStored } from '../engine/reads.js';
import { nodeKey } from '../engine/items.js';
import type { TreeStrategy } from '../strategy.js';
import { STRATEGIES, STRATEGY_NAMES, strategyNamed, type StrategyName } from '../strategies/strategies.js';
import { chainsOf, kindOf, type ItemKind } from './chains.js';

/**
 * Rebuilds, in place, the projection of a target strategy from the truth: each node's place
 * fields (nodeFields) and projection items (itemsFor); projection items and place fields of the
 * other strategies are removed. Nodes are processed in id order and a checkpoint item records
 * the last one done, so an interrupted run resumes where it stopped.
 */
export interface ReindexProgress {
  start(total: number, done: number): void;
  advance(count: number): void;
}

const CHECKPOINT = (target: StrategyName): Key => ({ pk: REINDEX_PK, sk: target });
const PROJECTION_KINDS: ItemKind[] = [...STRATEGY_NAMES];
/** Every place field some strategy keeps on node items. */
const PLACE_FIELDS = [...new Set(STRATEGIES.flatMap((s) => Object.keys(s.nodeFields([]))))];
const BATCH_NODES = 25;
const ATTEMPTS = 6;
const STRAYS_PER_TRANSACTION = 50;

export async function reindex(
  doc: DynamoDBDocumentClient,
  table: string,
  targetName: StrategyName,
  maxTreeDepth: number,
  progress: ReindexProgress,
): Promise<{ nodes: number; resumedAfter: string | null }> {
  const target = strategyNamed(targetName);
  const items = await scanTable(doc, table);
  const byKey = new Map(items.map((item) => [keyString(item), item]));
  const checkpoint = byKey.get(keyString(CHECKPOINT(targetName)));
  const resumedAfter = typeof checkpoint?.after === 'string' ? checkpoint.after : null;
  const nodes = new Map(
    items.filter((i) => kindOf(i) === 'node' && typeof i.deleting !== 'string').map((i) => [String(i.id), i]),
  );
  const facts = chainsOf(nodes, maxTreeDepth);
  const ids = [...nodes.keys()].sort();
  const todo = ids.filter((id) => resumedAfter === null || id > resumedAfter);
  progress.start(ids.length, ids.length - todo.length);

  // Projection items of other kinds than the target's go first, in one sweep, and so do the
  // checkpoints of runs towards other targets (what they wrote is being replaced).
  const keep: ItemKind[] = [targetName];
  if (resumedAfter === null) {
    const stale = items.filter(
      (i) =>
        (PROJECTION_KINDS.includes(kindOf(i)) && !keep.includes(kindOf(i))) ||
        (i.pk === REINDEX_PK && i.sk !== target.name),
    );
    await batchWrite(doc, table, stale.map((i) => ({ delete: { pk: i.pk, sk: i.sk } })));
  }
  /** The chain each node was given, when it differs from the scan's (re-read after a conflict). */
  const written = new Map<string, string[]>();
  for (let i = 0; i < todo.length; i += BATCH_NODES) {
    const batch = todo.slice(i, i + BATCH_NODES);
    let placed = batch.map((id): Placed => {
      const chain = facts.get(id)?.chain;
      if (!chain) throw new Error(`node ${id}: ${facts.get(id)?.problem ?? 'broken chain'}; fix the truth first`);
      return { item: nodes.get(id)!, chain };
    });
    for (let attempt = 0; ; attempt++) {
      try {
        await placeNodes(doc, table, target, placed);
        break;
      } catch (error) {
        if (!(error instanceof ConditionFailed) || attempt >= ATTEMPTS) throw error;
        // A live write moved one of these nodes or an ancestor since they were read.
        placed = await readPlaced(doc, table, batch, maxTreeDepth);
        for (const p of placed) written.set(String(p.item.id), p.chain);
      }
    }
    await batchWrite(doc, table, [{ put: { ...CHECKPOINT(targetName), after: batch.at(-1) } }]);
    progress.advance(batch.length);
  }
  // Items of the target's kind that the truth does not imply (left by a crash or a bug) go last,
  // each on the condition that its node still has the path it was given here.
  const chainOf = (id: string) => written.get(id) ?? facts.get(id)?.chain ?? [];
  const expected = new Set(ids.flatMap((id) => target.itemsFor(id, chainOf(id))).map((item) => keyString(item)));
  const strays = items.filter((i) => keep.includes(kindOf(i)) && !expected.has(keyString(i)));
  await removeStrays(doc, table, target, strays, (id) => (nodes.has(id) ? chainOf(id) : null));
  await batchWrite(doc, table, [{ delete: CHECKPOINT(targetName) }]);
  return { nodes: ids.length, resumedAfter };
}

/** A node as read for the reindex: its item, and its ancestors from the parent pointers. */
interface Placed {
  item: Item;
  chain: string[];
}

/**
 * Gives each node its place under `target` (place fields, projection items), in as few
 * transactions as they fit, each on the condition that nothing it was computed from changed:
 * every ancestor still has the parent it was read with, and the node its parent and its stored
 * path. A live write committed since the read makes it fail (ConditionFailed) instead of being
 * overwritten by a stale place.
 */
async function placeNodes(doc: DynamoDBDocumentClient, table: string, target: TreeStrategy, placed: Placed[]): Promise<void> {
  let tx = new TransactionBuilder(table);
  for (const node of placed) {
    const alone = new TransactionBuilder(table);
    planPlace(alone, target, node);
    if (tx.size > 0 && tx.size + alone.size > TRANSACTION_LIMIT) {
      await transactWrite(doc, tx.build());
      tx = new TransactionBuilder(table);
    }
    if (alone.size > TRANSACTION_LIMIT) {
      await placeInSlices(doc, table, target, node);
      continue;
    }
    planPlace(tx, target, node);
  }
  if (tx.size > 0) await transactWrite(doc, tx.build());
}

/** The conditions that the node and its chain are as read. */
function planUnchanged(tx: TransactionBuilder, { item, chain }: Placed): void {
  chain.forEach((ancestorId, i) => {
    tx.check(nodeKey(ancestorId), { exists: true }, { equalsOrMissing: ['parentId', i === 0 ? null : chain[i - 1]!] });
  });
  tx.check(
    nodeKey(String(item.id)),
    { exists: true },
    { equalsOrMissing: ['parentId', chain.at(-1) ?? null] },
    ...PLACE_FIELDS.map((field): Condition => (item[field] === undefined ? { missing: field } : { equals: [field, item[field]] })),
  );
}

/** A node's place fields (other strategies' removed) and projection items, unless it changed. */
function planPlace(tx: TransactionBuilder, target: TreeStrategy, node: Placed): void {
  planUnchanged(tx, node);
  const fields = target.nodeFields(node.chain);
  const update = { set: { ...fields }, remove: PLACE_FIELDS.filter((field) => !(field in fields)) };
  if (Object.keys(update.set).length > 0 || update.remove.length > 0) tx.update(nodeKey(String(node.item.id)), update);
  for (const item of target.itemsFor(String(node.item.id), node.chain)) tx.put(item);
}

/** A node whose place alone exceeds a transaction (a deep closure node): items first, fields last. */
async function placeInSlices(doc: DynamoDBDocumentClient, table: string, target: TreeStrategy, node: Placed): Promise<void> {
  const items = target.itemsFor(String(node.item.id), node.chain);
  const guard = new TransactionBuilder(table);
  planUnchanged(guard, node);
  const slice = TRANSACTION_LIMIT - guard.size;
  for (let i = 0; i < items.length; i += slice) {
    const tx = new TransactionBuilder(table);
    planUnchanged(tx, node);
    for (const item of items.slice(i, i + slice)) tx.put(item);
    await transactWrite(doc, tx.build());
  }
  const last = new TransactionBuilder(table);
  planPlace(last, { ...target, itemsFor: () => [] }, node);
  await transactWrite(doc, last.build());
}

/** The nodes read again, strongly consistent, with their chains walked from parent pointers. */
async function readPlaced(doc: DynamoDBDocumentClient, table: string, ids: string[], maxTreeDepth: number): Promise<Placed[]> {
  const ctx = { doc, table, maxTreeDepth };
  const items = await batchGetItems(doc, table, ids.map(nodeKey));
  const parentOf = new Map<string, string | null>();
  const placed = ids.flatMap((id) => {
    const item = items.get(keyString(nodeKey(id)));
    return item ? [item] : [];
  });
  let pending = placed.map((item) => (typeof item.parentId === 'string' ? item.parentId : null)).filter((p): p is string => p !== null);
  for (let step = 0; pending.length > 0; step++) {
    if (step > maxTreeDepth + 8) throw new Error('parent chain longer than the depth limit allows');
    const read = await readStored(ctx, [...new Set(pending)].filter((id) => !parentOf.has(id)));
    for (const [id, stored] of read) parentOf.set(id, stored.node.parentId);
    pending = [...read.values()].map((s) => s.node.parentId).filter((p): p is string => p !== null && !parentOf.has(p));
  }
  return placed.map((item) => {
    const chain: string[] = [];
    for (let id = typeof item.parentId === 'string' ? item.parentId : null; id !== null; id = parentOf.get(id) ?? null) {
      chain.unshift(id);
    }
    return { item, chain };
  });
}

/**
 * Deletes items of the target's kind that the truth does not imply, each with its node (the
 * `id` it names) checked to still have the path the reindex gave it: an item that a live write
 * made valid since is left alone.
 */
async function removeStrays(
  doc: DynamoDBDocumentClient,
  table: string,
  target: TreeStrategy,
  strays: Item[],
  chainOf: (id: string) => string[] | null,
): Promise<void> {
  const remove = async (group: Item[]): Promise<void> => {
    const tx = new TransactionBuilder(table);
    for (const stray of group) {
      tx.delete({ pk: String(stray.pk), sk: String(stray.sk) });
      const id = typeof stray.id === 'string' ? stray.id : null;
      const chain = id === null ? null : chainOf(id);
      if (id === null) continue;
      if (chain === null) tx.check(nodeKey(id), { notExists: true });
      else {
        const kept = Object.entries(target.nodeFields(chain)).map(([field, value]): Condition => ({ equals: [field, value] }));
        if (kept.length > 0) tx.check(nodeKey(id), ...kept);
      }
    }
    try {
      await transactWrite(doc, tx.build());
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
      // A live write changed a node of the group, whose items are its own now: the others
      // one by one.
      if (group.length > 1) for (const stray of group) await remove([stray]);
    }
  };
  for (let i = 0; i < strays.length; i += STRAYS_PER_TRANSACTION) await remove(strays.slice(i, i + STRAYS_PER_TRANSACTION));
}
