import type { TreeStrategy } from '../../strategy.js';
import { storedPath } from '../parts/storedPath.js';
import { countByLevelItems } from './countByLevelItems.js';
import { descendantsByLevelItems } from './descendantsByLevelItems.js';
import { encodePath, levelItem, LEVEL_PK_PREFIX } from './levelKeys.js';
import { subtreeByLevelItems } from './subtreeByLevelItems.js';

/**
 * Materialized path: the path on each node item (storedPath), plus one level item per node in
 * the collection of its tree and absolute depth, sorted by its encoded path (levelKeys.ts).
 * Each level item carries a copy of its node (carriesNode), so a page of descendants, or of
 * children several levels deep, costs its Queries and no read by id; a rename, a data update or
 * a child added or removed writes it too (one item more than the truth).
 * Ancestors: one BatchGet of the ids on the path. Descendants, and children several levels deep:
 * one exact Query per depth, in parallel waves; a count of them, one `Select: 'COUNT'` Query per
 * depth below the first (the childCount), in the same waves. A move rewrites the path and the
 * level item of every node of the moved subtree (3 items a node).
 */
export const path: TreeStrategy<'path'> = {
  name: 'path',
  maxDepthLimit: 90,
  ...storedPath,
  descendantsFrom: 'projection',
  itemsFor: (id, { path: ancestors }) => [levelItem(ancestors, id)],
  keyPrefixes: { pk: [LEVEL_PK_PREFIX], sk: [] },
  owns: (key) => key.pk.startsWith(LEVEL_PK_PREFIX),
  carriesNode: () => true,
  itemName: 'level',
  descendants: descendantsByLevelItems,
  subtreeItems: subtreeByLevelItems,
  countDescendants: countByLevelItems,
  descendantSortKey: ({ path: ancestors }, id) => encodePath([...ancestors, id]),
};
