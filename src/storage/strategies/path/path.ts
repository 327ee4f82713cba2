import { nodeKey } from '../../../dynamodb/keys.js';
import type { TreeStrategy } from '../../strategy.js';
import { storedPath } from '../parts/storedPath.js';
import { addressed, addressItems, ADDRESS_PK_PREFIX } from './addressKeys.js';
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
 *
 * Under node types with path keys (NODE_TYPES), it also keeps each node's path keys (`keys`) and
 * its address (addressKeys.ts): a path is then one Query of the address and one read of the
 * node. A move rewrites the addresses of the moved subtree with its paths (2 items more a node);
 * so does a rename of a path key, for the renamed node's subtree (keepsKeys).
 */
export const path: TreeStrategy<'path'> = {
  name: 'path',
  maxDepthLimit: 90,
  ...storedPath,
  keepsKeys: true,
  nodeFields: ({ path: ancestors, keys }) => ({
    path: [...ancestors],
    ...(keys.some((key) => key !== '') ? { keys: [...keys] } : {}),
  }),
  /** The stored path's guard, and the parent's path keys: a rename above it rewrites them. */
  guardChain(tx, chain, now, guards) {
    storedPath.guardChain(tx, chain, now, guards);
    const parent = chain[chain.length - 1];
    if (parent) {
      const { keys } = parent.node;
      tx.check(nodeKey(parent.node.id), keys ? { equals: ['keys', keys] } : { missing: 'keys' });
    }
  },
  descendantsFrom: 'projection',
  itemsFor: (id, place) => [levelItem(place.path, id), ...addressItems(place, id)],
  keyPrefixes: { pk: [LEVEL_PK_PREFIX, ADDRESS_PK_PREFIX], sk: [] },
  owns: (key) => key.pk.startsWith(LEVEL_PK_PREFIX) || key.pk.startsWith(ADDRESS_PK_PREFIX),
  carriesNode: (key) => key.pk.startsWith(LEVEL_PK_PREFIX),
  itemName: 'level',
  descendants: descendantsByLevelItems,
  subtreeItems: subtreeByLevelItems,
  countDescendants: countByLevelItems,
  addressed,
  descendantSortKey: ({ path: ancestors }, id) => encodePath([...ancestors, id]),
};
