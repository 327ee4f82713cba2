import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StrategyName } from '../../config.js';
import { keyString, type Item, type Key } from '../../dynamodb/batchGet.js';
import { batchWrite, type WriteRequest } from '../../dynamodb/batchWrite.js';
import { scanTable } from '../../dynamodb/scan.js';
import { TransactionBuilder } from '../../dynamodb/transactionBuilder.js';
import { transactWrite } from '../../dynamodb/transactWrite.js';
import { nodeKey } from '../items.js';
import { chainsOf, expectedProjection, kindOf, projectionKinds, storesPath, type ItemKind } from './expected.js';

const PROJECTION_KINDS: ItemKind[] = ['level', 'closure'];

/**
 * Rebuilds, in place, the projections of a target strategy from the truth: each node's stored
 * path, and the level items (path) or closure rows (closure); projection items of the other
 * strategies are removed. Nodes are processed in id order and a checkpoint item records the
 * last one done, so an interrupted run resumes where it stopped.
 */
export interface ReindexProgress {
  start(total: number, done: number): void;
  advance(count: number): void;
}

const CHECKPOINT = (target: StrategyName): Key => ({ pk: 'REINDEX', sk: target });
const BATCH_NODES = 25;

export async function reindex(
  doc: DynamoDBDocumentClient,
  table: string,
  target: StrategyName,
  maxDepth: number,
  progress: ReindexProgress,
): Promise<{ nodes: number; resumedAfter: string | null }> {
  const items = await scanTable(doc, table);
  const byKey = new Map(items.map((item) => [keyString(item), item]));
  const checkpoint = byKey.get(keyString(CHECKPOINT(target)));
  const resumedAfter = typeof checkpoint?.after === 'string' ? checkpoint.after : null;
  const nodes = new Map(
    items.filter((i) => kindOf(i) === 'node' && typeof i.deleting !== 'string').map((i) => [String(i.id), i]),
  );
  const facts = chainsOf(nodes, maxDepth);
  const ids = [...nodes.keys()].sort();
  const todo = ids.filter((id) => resumedAfter === null || id > resumedAfter);
  progress.start(ids.length, ids.length - todo.length);

  // Projection items of other kinds than the target's go first, in one sweep, and so do the
  // checkpoints of runs towards other targets (what they wrote is being replaced).
  const keep: ItemKind[] = projectionKinds(target);
  if (resumedAfter === null) {
    const stale = items.filter(
      (i) =>
        (PROJECTION_KINDS.includes(kindOf(i)) && !keep.includes(kindOf(i))) ||
        (i.pk === CHECKPOINT(target).pk && i.sk !== target),
    );
    await batchWrite(doc, table, stale.map((i) => ({ delete: { pk: i.pk, sk: i.sk } })));
  }
  for (let i = 0; i < todo.length; i += BATCH_NODES) {
    const batch = todo.slice(i, i + BATCH_NODES);
    const writes: WriteRequest[] = [];
    const chains = batch.map((id) => {
      const chain = facts.get(id)?.chain;
      if (!chain) throw new Error(`node ${id}: ${facts.get(id)?.problem ?? 'broken chain'}; fix the truth first`);
      for (const item of expectedProjection(target, id, chain)) writes.push({ put: item });
      return chain;
    });
    await Promise.all(
      batch.map((id, i) => setStoredPath(doc, table, nodes.get(id)!, storesPath(target) ? chains[i]! : null)),
    );
    await batchWrite(doc, table, [...writes, { put: { ...CHECKPOINT(target), after: batch.at(-1) } }]);
    progress.advance(batch.length);
  }
  // Items of the target's kind that the truth does not imply (left by a crash or a bug) go last.
  const expected = new Set(
    ids.flatMap((id) => expectedProjection(target, id, facts.get(id)?.chain ?? [])).map((item) => keyString(item)),
  );
  const strays = items.filter((i) => keep.includes(kindOf(i)) && !expected.has(keyString(i)));
  await batchWrite(doc, table, [
    ...strays.map((i): WriteRequest => ({ delete: { pk: i.pk, sk: i.sk } })),
    { delete: CHECKPOINT(target) },
  ]);
  return { nodes: ids.length, resumedAfter };
}

/** Sets (or removes) a node's path, only while its parent is the one the chain was read with. */
async function setStoredPath(doc: DynamoDBDocumentClient, table: string, node: Item, path: string[] | null) {
  const parentId = typeof node.parentId === 'string' ? node.parentId : null;
  const tx = new TransactionBuilder(table).update(
    nodeKey(String(node.id)),
    path === null ? { remove: ['path'] } : { set: { path } },
    { exists: true },
    { equalsOrMissing: ['parentId', parentId] },
  );
  await transactWrite(doc, tx.build());
}
