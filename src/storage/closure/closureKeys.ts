import type { Key } from '../../dynamodb/batchGet.js';

/**
 * The closure strategy's rows: one per (ancestor, descendant, distance >= 1), in the ancestor's
 * item collection, sorted by distance then descendant id. descendants(minDepth..maxDepth) is
 * then one Query with the distance range in the key condition, exact and paged by DynamoDB.
 * Rows are thin (the descendant's id); the nodes are read by id.
 */
export const CLOSURE_PREFIX = 'D#';
const DISTANCE_WIDTH = 3;

export const distanceSk = (distance: number): string =>
  `${CLOSURE_PREFIX}${String(distance).padStart(DISTANCE_WIDTH, '0')}#`;

export const closureSk = (distance: number, descendantId: string): string => `${distanceSk(distance)}${descendantId}`;

/** The rows of a node whose ancestors are `path` (root first). */
export function closureRowKeys(path: readonly string[], id: string): Key[] {
  return path.map((ancestorId, i) => ({ pk: `N#${ancestorId}`, sk: closureSk(path.length - i, id) }));
}
