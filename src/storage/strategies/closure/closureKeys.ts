import { NODE_PK_PREFIX, type Item, type Key } from '../../../dynamodb/keys.js';

/** sk prefix of a closure row, in the collection of its ancestor's node. */
export const CLOSURE_SK_PREFIX = 'D#';
import type { KeyQuery } from '../../../dynamodb/keyQuery.js';
import type { DepthWindow } from '../../treeStore.js';

/**
 * The closure strategy's rows: one per (ancestor, descendant, distance >= 1), in the ancestor's
 * item collection, sorted by distance then descendant id. descendants(minDepth..maxDepth) is
 * then one Query with the distance range in the key condition, exact and paged by DynamoDB.
 * Rows up to COPY_DISTANCE also carry a copy of the descendant (the engine writes it); farther
 * rows are thin (the descendant's id), their nodes read by id: a copy in every row would make a
 * rename at depth 60 write 60 rows, and a child added there 60 more.
 */
const DISTANCE_WIDTH = 3;

export const distanceSk = (distance: number): string =>
  `${CLOSURE_SK_PREFIX}${String(distance).padStart(DISTANCE_WIDTH, '0')}#`;

export const closureSk = (distance: number, descendantId: string): string => `${distanceSk(distance)}${descendantId}`;

/** The distance a row's sort key holds. */
export const distanceOf = (sk: string): number =>
  Number(sk.slice(CLOSURE_SK_PREFIX.length, CLOSURE_SK_PREFIX.length + DISTANCE_WIDTH));

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

/** The farthest distance at which a row carries a copy of its node. */
export const COPY_DISTANCE = 3;

/** Rows up to COPY_DISTANCE carry a copy of their node (TreeStrategy.carriesNode). */
export const carriesNode = (key: Key): boolean => distanceOf(key.sk) <= COPY_DISTANCE;

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
