import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchWrite, type WriteRequest } from '../../dynamodb/batchWrite.js';
import { keyString, REINDEX_PK, type Item, type Key } from '../../dynamodb/keys.js';
import { scanTable } from '../../dynamodb/scan.js';
import { TransactionBuilder } from '../../dynamodb/transactionBuilder.js';
import { transactWrite } from '../../dynamodb/transactWrite.js';
import { nodeKey } from '../engine/items.js';
import type { PlaceFields } from '../strategy.js';
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
  for (let i = 0; i < todo.length; i += BATCH_NODES) {
    const batch = todo.slice(i, i + BATCH_NODES);
    const writes: WriteRequest[] = [];
    const chains = batch.map((id) => {
      const chain = facts.get(id)?.chain;
      if (!chain) throw new Error(`node ${id}: ${facts.get(id)?.problem ?? 'broken chain'}; fix the truth first`);
      for (const item of target.itemsFor(id, chain)) writes.push({ put: item });
      return chain;
    });
    await Promise.all(
      batch.map((id, i) => setPlaceFields(doc, table, nodes.get(id)!, target.nodeFields(chains[i]!))),
    );
    await batchWrite(doc, table, [...writes, { put: { ...CHECKPOINT(targetName), after: batch.at(-1) } }]);
    progress.advance(batch.length);
  }
  // Items of the target's kind that the truth does not imply (left by a crash or a bug) go last.
  const expected = new Set(
    ids.flatMap((id) => target.itemsFor(id, facts.get(id)?.chain ?? [])).map((item) => keyString(item)),
  );
  const strays = items.filter((i) => keep.includes(kindOf(i)) && !expected.has(keyString(i)));
  await batchWrite(doc, table, [
    ...strays.map((i): WriteRequest => ({ delete: { pk: i.pk, sk: i.sk } })),
    { delete: CHECKPOINT(targetName) },
  ]);
  return { nodes: ids.length, resumedAfter };
}

/**
 * Sets a node's place fields and removes those of other strategies, only while its parent is the
 * one the chain was read with.
 */
async function setPlaceFields(doc: DynamoDBDocumentClient, table: string, node: Item, fields: PlaceFields) {
  const parentId = typeof node.parentId === 'string' ? node.parentId : null;
  const update = { set: { ...fields }, remove: PLACE_FIELDS.filter((field) => !(field in fields)) };
  if (Object.keys(update.set).length === 0 && update.remove.length === 0) return;
  const tx = new TransactionBuilder(table).update(
    nodeKey(String(node.id)),
    update,
    { exists: true },
    { equalsOrMissing: ['parentId', parentId] },
  );
  await transactWrite(doc, tx.build());
}
