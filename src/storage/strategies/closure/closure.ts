import type { TreeStrategy } from '../../strategy.js';
import { storedPath } from '../parts/storedPath.js';
import { closureRows, closureSk, isClosureRow } from './closureKeys.js';
import { descendantsByRows } from './descendantsByRows.js';

/**
 * Closure table: a row per (ancestor, descendant, distance), plus the path on each node item
 * (storedPath: ancestors and depth are one BatchGet, and a create guards one item, not its
 * chain). Descendants: one Query of the node's rows with the distance range in the key
 * condition. A move rewrites only the rows that link the subtree to the ancestors it leaves and
 * joins (the engine writes the difference of closureRows); rows inside the subtree stay.
 */
export const closure: TreeStrategy<'closure'> = {
  name: 'closure',
  ...storedPath,
  itemsFor: closureRows,
  owns: isClosureRow,
  itemName: 'closure',
  descendants: descendantsByRows,
  descendantSortKey: (_path, id, depth) => closureSk(depth, id),
};
