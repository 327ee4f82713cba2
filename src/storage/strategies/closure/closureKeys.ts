import { NODE_PK_PREFIX, sortKeyOf, type Item, type Key } from '../../../dynamodb/keys.js';

/** sk prefix of a closure row, in the collection of its ancestor's node. */
export const CLOSURE_SK_PREFIX = 'D#';
import type { KeyQuery } from '../../../dynamodb/keyQuery.js';
import type { CopyLack } from '../../strategy.js';
import type { DepthWindow } from '../../treeStore.js';

/**
 * The closure strategy's rows: one per (ancestor, descendant, distance >= 1), in the ancestor's
 * item collection, sorted by distance then descendant id. descendants(minDepth..maxDepth) is
 * then one Query with the distance range in the key condition, exact and paged by DynamoDB.
 * Every row carries a copy of the descendant (the engine writes it): a whole one up to
 * COPY_DISTANCE; farther, one without its childCount and data (copyLacks), so that a child added
 * at depth 60 rewrites 3 rows, not 60, and a rename there writes its 60 rows small. A read that
 * needs those fields of a farther node reads the node by id.
 */
const DISTANCE_WIDTH = 3;

export const distanceSk = (distance: number): string =>
  `${CLOSURE_SK_PREFIX}${String(distance).padStart(DISTANCE_WIDTH, '0')}#`;

export const closureSk = (distance: number, descendantId: string): string => `${distanceSk(distance)}${descendantId}`;

/** The distance a row's sort key holds. */
export const distanceOf = (sk: string): number =>
  Number(sk.slice(CLOSURE_SK_PREFIX.length, CLOSURE_SK_PREFIX.length + DISTANCE_WIDTH));

/** The descendant a row's sort key names. */
export const descendantOf = (sk: string): string => sk.slice(CLOSURE_SK_PREFIX.length + DISTANCE_WIDTH + 1);

/**
 * What a Query of rows projects for nodes read without some fields (StrategyContext.reading):
 * never the descendant's id, which the sort key holds (withDescendants gives it back).
 */
export const rowsReading = (reading: readonly string[] | undefined): string[] | undefined =>
  reading?.filter((name) => name !== 'id');

/** Rows read by rowsReading, each given its descendant's id again. */
export function withDescendants(rows: Item[], reading: readonly string[] | undefined): Item[] {
  if (reading) for (const row of rows) row.id = descendantOf(sortKeyOf(row));
  return rows;
}

/** Sorts above every row's sort key. */
const MAX_DISTANCE_SK = `${CLOSURE_SK_PREFIX}999#~`;

/** The rows of a node whose ancestors are `path` (root first): thin, the descendant's id. */
export function closureRows(id: string, path: readonly string[]): Array<Item & Key> {
  return path.map((ancestorId, i) => ({
    pk: `${NODE_PK_PREFIX}${ancestorId}`,
    sk: closureSk(path.length - i, id),
    id,
  }));
}

/** The farthest distance at which a row carries a whole copy of its node. */
export const COPY_DISTANCE = 3;

/** Every row carries a copy of its node (TreeStrategy.carriesNode)... */
export const carriesNode = (): boolean => true;

const FAR_COPY_LACKS: readonly CopyLack[] = ['childCount', 'data'];

/** ...without its childCount and data past COPY_DISTANCE (TreeStrategy.copyLacks). */
export const copyLacks = (key: Key): readonly CopyLack[] => (distanceOf(key.sk) <= COPY_DISTANCE ? [] : FAR_COPY_LACKS);

/** A closure row's key: a D# sort key in a node's collection. */
export const isClosureRow = (key: Key): boolean =>
  key.pk.startsWith(NODE_PK_PREFIX) && key.sk.startsWith(CLOSURE_SK_PREFIX);

/** The rows of `ancestorId` at distances window.minDepth (at least 1)..window.maxDepth. */
export function closureRange(ancestorId: string, window: DepthWindow, afterSk?: string): KeyQuery {
  const lo = distanceSk(Math.max(1, window.minDepth));
  const hi = window.maxDepth === null ? MAX_DISTANCE_SK : `${distanceSk(window.maxDepth)}~`;
  return {
    pk: `${NODE_PK_PREFIX}${ancestorId}`,
    sk: { between: [lo, hi] },
    ...(afterSk === undefined ? {} : { after: afterSk }),
  };
}
