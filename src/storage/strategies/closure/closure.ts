import type { TreeStrategy } from '../../strategy.js';
import { storedPath } from '../parts/storedPath.js';
import { carriesNode, CLOSURE_SK_PREFIX, closureRows, closureSk, copyLacks, isClosureRow } from './closureKeys.js';
import { countByRows } from './countByRows.js';
import { descendantsByRows } from './descendantsByRows.js';
import { subtreeByRows } from './subtreeByRows.js';

/**
 * Closure table: a row per (ancestor, descendant, distance), plus the path on each node item
 * (storedPath: ancestors and depth are one BatchGet, and a create guards one item, not its
 * chain). Descendants: one Query of the node's rows with the distance range in the key
 * condition; their count, the same range counted (`Select: 'COUNT'`). Every row carries a copy
 * of its node (carriesNode), past COPY_DISTANCE (3) without its childCount and data (copyLacks),
 * so a page of descendants, and children three levels deep, cost that one Query and no read by
 * id (a page that reads those two fields of farther nodes reads them by id); a rename or reorder
 * also writes the node's rows (one per ancestor), a data update or a child added or removed its
 * rows at distances 1 to 3. A move rewrites only the rows that link the subtree to the ancestors it leaves
 * and joins (the engine writes the difference of closureRows); rows inside the subtree stay.
 */
export const closure: TreeStrategy<'closure'> = {
  name: 'closure',
  // A create writes a closure row per ancestor, and itself and its guards take 13 more actions
  // (a rename or a reorder writes a row per ancestor too, and fewer others).
  maxDepthLimit: 87,
  ...storedPath,
  descendantsFrom: 'projection',
  itemsFor: (id, { path }) => closureRows(id, path),
  keyPrefixes: { pk: [], sk: [CLOSURE_SK_PREFIX] },
  owns: isClosureRow,
  carriesNode,
  copyLacks,
  itemName: 'closure',
  descendants: descendantsByRows,
  subtreeItems: subtreeByRows,
  countDescendants: countByRows,
  descendantSortKey: (_path, id, depth) => closureSk(depth, id),
};
