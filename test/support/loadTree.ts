import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { generateNKeysBetween } from 'fractional-indexing';
import { createDynamo } from '../../src/dynamodb/client.js';
import { inParallel } from '../../src/inParallel.js';
import type { Item } from '../../src/dynamodb/keys.js';
import { edgeItem, nodeItem } from '../../src/storage/engine/core/items.js';
import { childPlace, placeOfRoot, projectionItems } from '../../src/storage/engine/core/projectionPlans.js';
import type { Place } from '../../src/storage/strategy.js';
import { strategyNamed, type StrategyName } from '../../src/storage/strategies/strategies.js';
import type { TreeNode } from '../../src/storage/treeStore.js';
import type { TestServer } from './server.js';
import type { TreeSpec } from './tree.js';

/**
 * Writes big fixtures (trees of thousands of nodes, as new roots) as items with BatchWriteItem, 16 requests at a time:
 * each node's item, its edge copy and the strategy's projection items, siblings in spec order.
 * Much faster than a createNode per node; `tree verify` (run on every test table) checks that
 * the result is exactly what the mutations would have written.
 */
export async function loadTree(
  doc: DynamoDBDocumentClient,
  table: string,
  strategy: StrategyName,
  roots: TreeSpec[],
): Promise<void> {
  const descriptor = strategyNamed(strategy);
  const items: Item[] = [];
  const now = new Date().toISOString();
  const add = (spec: TreeSpec, parent: { id: string; place: Place } | null, position: string) => {
    const place = parent ? childPlace(parent.place, parent.id, position, '') : placeOfRoot(position);
    const children = spec.children ?? [];
    const node: TreeNode = {
      id: spec.id,
      parentId: parent?.id ?? null,
      name: spec.name ?? spec.id,
      position,
      version: 1,
      childCount: children.length,
      data: spec.data ?? null,
      createdAt: now,
      updatedAt: now,
      ...descriptor.nodeFields(place),
    };
    items.push(nodeItem(node, 1), edgeItem(node, 1), ...projectionItems(descriptor, node, place));
    const positions = generateNKeysBetween(null, null, children.length);
    children.forEach((child, i) => add(child, { id: spec.id, place }, child.position ?? positions[i]!));
  };
  const positions = generateNKeysBetween(null, null, roots.length);
  roots.forEach((spec, i) => add(spec, null, spec.position ?? positions[i]!));

  const batches: Item[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  // 16 requests in flight at all times (not in waves that wait for their slowest).
  await inParallel(batches, 16, async (batch) => {
    let request: Record<string, Array<{ PutRequest: { Item: Item } }>> = {
      [table]: batch.map((Item) => ({ PutRequest: { Item } })),
    };
    for (let round = 0; Object.keys(request).length > 0; round++) {
      if (round > 10) throw new Error('BatchWriteItem kept leaving items unprocessed');
      const out = await doc.send(new BatchWriteCommand({ RequestItems: request }));
      request = (out.UnprocessedItems ?? {}) as typeof request;
    }
  });
}

/** loadTree into a server's table, under its strategy, over a client of its own. */
export async function loadInto(server: TestServer, roots: TreeSpec[]): Promise<void> {
  const { doc, client } = createDynamo({ endpoint: server.config.dynamodbEndpoint, region: server.config.region });
  try {
    await loadTree(doc, server.table, server.config.strategy, roots);
  } finally {
    client.destroy();
  }
}

/**
 * A chain `prefix-0` ── `prefix-1` ── … of `length` nodes, loaded as a new root of the server's
 * table with the server's strategy; answers its ids, root first.
 */
export async function loadChain(server: TestServer, prefix: string, length: number): Promise<string[]> {
  const ids = Array.from({ length }, (_, i) => `${prefix}-${i}`);
  let spec: TreeSpec | undefined;
  for (const id of [...ids].reverse()) spec = { id, children: spec ? [spec] : [] };
  await loadInto(server, spec ? [spec] : []);
  return ids;
}
