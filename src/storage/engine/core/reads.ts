import { batchGetItems, getItem } from '../../../dynamodb/batchGet.js';
import { keyString, type Item } from '../../../dynamodb/keys.js';
import { keyQuery, withProjection } from '../../../dynamodb/keyQuery.js';
import { MAX_QUERY_PAGES, queryItems, type QueryResult } from '../../../dynamodb/query.js';
import { TreeError } from '../../../errors.js';
import { walkLimit, type StoredNode } from '../../strategy.js';
import type { TableContext } from './engineContext.js';
import { nodeKey, PENDING, storedFromItem } from './items.js';
import { OPEN_JOBS_KEY, openJobsOf, type OpenJobs } from './openJobs.js';
import { adjacentQuery, childrenQuery, openEntriesQuery } from './readPlans.js';
import { Replan } from './replan.js';

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
  const { items } = await queryChildren(ctx, parentId);
  return items.map(storedFromItem);
}

/** The entries of the open (and lately closed) jobs (openJobs.ts): one Query. */
export async function readOpenEntries(ctx: TableContext): Promise<Item[]> {
  return (await queryItems(ctx.doc, keyQuery(ctx.table, openEntriesQuery()))).items;
}

/**
 * The open jobs, whether or not the summary is active (openJobs.ts): the summary and the
 * entries, read side by side. For the job sweep and a reindex's start; a request's reads of
 * nodes go through reads/visibleNodes.ts.
 */
export async function readAllOpenJobs(ctx: TableContext): Promise<OpenJobs> {
  const [summary, entries] = await Promise.all([readSummaryItem(ctx), readOpenEntries(ctx)]);
  return openJobsOf(summary, entries);
}

/** The summary of the open jobs alone (openJobs.ts): one read (undefined: never written). */
export async function readSummaryItem(ctx: TableContext): Promise<Item | undefined> {
  return getItem(ctx.doc, ctx.table, OPEN_JOBS_KEY);
}

/**
 * A parent's edge items in sibling order (`backwards`: the reverse), after edge sort key
 * `after`, up to `limit` (all without one), leaving out the top nodes of an IMPORT job that has
 * not joined them to the tree yet: their edges are written before the join, marked with the
 * job's id (items.ts PENDING), and the join makes them children in one transaction, however
 * many they are (importJob.ts). The entries of the open jobs are read (one more request) only
 * when an edge read carries the mark; the query goes on past the edges left out until it has
 * `limit` (the marked edges of one import are at most MAX_CREATE_NODES, so a few Queries).
 */
export async function queryChildren(
  ctx: TableContext,
  parentId: string | null,
  options: { after?: string; limit?: number; backwards?: boolean; reading?: readonly string[] } = {},
): Promise<QueryResult> {
  const { limit, backwards } = options;
  // Read without some node attributes (StrategyContext.reading), an edge keeps its import's mark.
  const query = (after: string | undefined) =>
    withProjection(keyQuery(ctx.table, childrenQuery(parentId, after, backwards)), options.reading, ['sk', PENDING]);
  let read = await queryItems(ctx.doc, query(options.after), limit);
  if (!read.items.some(isMarked)) return read;
  const importing = openJobsOf(undefined, await readOpenEntries(ctx)).importing;
  const joined = (item: Item) => {
    const mark = item[PENDING];
    return !isMarked(item) || typeof mark !== 'string' || !importing.has(mark);
  };
  const items = read.items.filter(joined);
  for (let round = 0; limit !== undefined && items.length < limit && read.lastKey; round++) {
    if (round >= MAX_QUERY_PAGES)
      throw new TreeError(
        'SERVICE_UNAVAILABLE',
        `the children of "${parentId}" needed more than ${MAX_QUERY_PAGES} queries`,
      );
    // Past marked edges, more of them may follow: read on in big steps, and cut.
    const step = Math.max(limit - items.length, READ_ON_STEP);
    read = await queryItems(ctx.doc, query(String(read.lastKey.sk)), step);
    items.push(...read.items.filter(joined));
  }
  if (limit === undefined || items.length <= limit) return { items, lastKey: read.lastKey };
  const kept = items.slice(0, limit);
  return { items: kept, lastKey: { pk: kept[limit - 1]!.pk, sk: kept[limit - 1]!.sk } };
}

/** How many edges a read of children reads at once past the marked edges of an import. */
const READ_ON_STEP = 250;

const isMarked = (item: Item): boolean => typeof item[PENDING] === 'string';

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
 * The subtree below `root`, level by level (one wave of Queries per level), as long as it holds
 * at most `maxNodes` nodes, root included; null as soon as the children counts show it holds
 * more (before reading the level that would cross it).
 */
export async function readSubtreeWithin(
  ctx: TableContext,
  root: StoredNode,
  maxNodes: number,
): Promise<StoredNode[][] | null> {
  const levels: StoredNode[][] = [];
  const seen = new Set([root.node.id]);
  let count = 1;
  for (let frontier = [root]; frontier.length > 0;) {
    count += frontier.reduce((sum, s) => sum + s.node.childCount, 0);
    if (count > maxNodes) return null;
    if (levels.length > walkLimit(ctx))
      throw new Error(`subtree of ${root.node.id} is deeper than the depth limit allows`);
    frontier = await readLevelBelow(ctx, frontier, seen);
    if (frontier.length > 0) levels.push(frontier);
  }
  return levels;
}

/**
 * The children of `frontier` (edge copies), one wave of Queries, none for a node whose
 * childCount is 0. `seen` holds the ids met so far in the subtree: a node met twice moved
 * inside the subtree between two level reads, and throws Replan (read again).
 */
export async function readLevelBelow(
  ctx: TableContext,
  frontier: StoredNode[],
  seen: Set<string>,
): Promise<StoredNode[]> {
  const parents = frontier.filter((s) => s.node.childCount > 0);
  const next = (await Promise.all(parents.map((p) => readChildren(ctx, p.node.id)))).flat();
  for (const { node } of next) {
    if (seen.has(node.id)) throw new Replan(`node "${node.id}" moved inside the subtree while it was read`);
    seen.add(node.id);
  }
  return next;
}
