import { batchGetItems, getItem } from '../../dynamodb/batchGet.js';
import { keyQuery } from '../../dynamodb/keyQuery.js';
import { collectionPk, EDGE_SK_PREFIX, keyString, type Item, type Key } from '../../dynamodb/keys.js';
import { queryItems } from '../../dynamodb/query.js';
import { putStrategyRecord, readStrategyRecords, type StrategyRecord } from '../../dynamodb/strategyRecord.js';
import type { Place, TreeStrategy } from '../strategy.js';
import type { BuiltStrategy } from '../treeStore.js';
import type { EngineContext } from './core/engineContext.js';
import { nodeFromItem, nodeKey } from './core/items.js';
import { openSummaryOf, PROJECTION } from './core/openJobs.js';
import { readSummaryItem } from './core/reads.js';
import { jobFromItem, jobKey } from './jobs/jobRecord.js';
import { readReindexLock } from './jobs/reindexLock.js';

/**
 * TreeAdmin.builtStrategies: what the table records of the strategy each tenant's trees are built
 * for (dynamodb/strategyRecord.ts), and the reindex running in each such tenant. A table with no
 * record of the default tenant gets one first: the table was just created, or was written by a
 * version that kept no record. `contextFor` gives a tenant's context (null: the default one).
 */
export async function builtStrategies(contextFor: (tenant: string | null) => EngineContext): Promise<BuiltStrategy[]> {
  const ctx = contextFor(null);
  let records = await readStrategyRecords(ctx.doc, ctx.table);
  if (records[0]?.tenant !== null) {
    const found = await foundStrategy(ctx);
    const record = { tenant: null, strategy: found ?? ctx.strategy.name, by: found ? 'found' : 'start' } as const;
    // Another process may record it at the same time: then its record is the one read.
    const put = await putStrategyRecord(ctx.doc, ctx.table, record, { ifMissing: true });
    records = put ? [{ ...record, at: '' }, ...records] : await readStrategyRecords(ctx.doc, ctx.table);
  }
  return Promise.all(records.map((record) => withReindex(contextFor(record.tenant), record)));
}

/** The record, with the reindex its tenant's summary of open jobs names, while its job runs. */
async function withReindex(ctx: EngineContext, record: StrategyRecord): Promise<BuiltStrategy> {
  const built: BuiltStrategy = { tenant: record.tenant, strategy: record.strategy, by: record.by };
  const lock = await readReindexLock(ctx);
  if (!lock) return built;
  const item = await getItem(ctx.doc, ctx.table, jobKey(lock.jobId));
  const job = item ? jobFromItem(item) : undefined;
  if (job?.status !== 'RUNNING' || job.target === undefined) return built;
  return { ...built, reindex: { jobId: job.id, target: job.target, done: job.done, total: job.total } };
}

/**
 * The strategy the default tenant's trees are built for, in a table of an earlier version
 * (undefined: it has no tree, or its items do not tell). The summary of the open jobs names
 * the projection since a reindex (as every read takes it); else the items of a root and of a
 * child of it tell: each strategy keeps its own place fields on node items and its own
 * projection items, and only the strategy whose items are all there and whose fields are
 * exactly those found can have written them. A few requests, once per table.
 */
async function foundStrategy(ctx: EngineContext): Promise<string | undefined> {
  const projection = openSummaryOf(await readSummaryItem(ctx))[PROJECTION];
  if (projection !== undefined) return projection;
  const [root] = await firstEdges(ctx, null);
  if (!root) return undefined;
  const [child] = await firstEdges(ctx, root.id);
  const rootPlace: Place = { path: [], lineage: [root.position], keys: [] };
  const placed = [{ id: root.id, place: rootPlace }];
  if (child)
    placed.push({ id: child.id, place: { path: [root.id], lineage: [root.position, child.position], keys: [''] } });
  const expected = (strategy: TreeStrategy): Key[] =>
    placed.flatMap(({ id, place }) => strategy.itemsFor(id, place).map(({ pk, sk }) => ({ pk, sk })));
  const keys = [...placed.map(({ id }) => nodeKey(id)), ...ctx.strategies.flatMap(expected)];
  const found = await batchGetItems(ctx.doc, ctx.table, keys);
  const placeFields = [...new Set(ctx.strategies.flatMap((s) => Object.keys(s.nodeFields(rootPlace))))];
  const fieldsOf = (item: Item | undefined) => placeFields.filter((field) => item?.[field] !== undefined).sort();
  const matches = ctx.strategies.filter(
    (strategy) =>
      expected(strategy).every((key) => found.has(keyString(key))) &&
      placed.every(({ id, place }) => {
        const kept = Object.keys(strategy.nodeFields(place)).sort();
        return kept.join() === fieldsOf(found.get(keyString(nodeKey(id)))).join();
      }),
  );
  // Path and closure keep the same fields; with a root alone, closure expects no item and path one.
  const most = Math.max(...matches.map((strategy) => expected(strategy).length));
  const best = matches.filter((strategy) => expected(strategy).length === most);
  return best.length === 1 ? best[0]!.name : undefined;
}

/** The first child (null: root) of a parent, from its edge: its id and position. */
async function firstEdges(
  ctx: EngineContext,
  parentId: string | null,
): Promise<Array<{ id: string; position: string }>> {
  const query = keyQuery(ctx.table, { pk: collectionPk(parentId), sk: { beginsWith: EDGE_SK_PREFIX } });
  const { items } = await queryItems(ctx.doc, query, 1);
  return items.map(nodeFromItem).map(({ id, position }) => ({ id, position }));
}
