import { nodeKey } from '../../../dynamodb/keys.js';
import type { TreeStrategy } from '../../strategy.js';
import { descendantsByLevels } from '../parts/descendantsByLevels.js';
import { storedPath } from '../parts/storedPath.js';
import { checkKeyRoom } from './checkKeyRoom.js';
import { countByRange } from './countByRange.js';
import { preorderByRange } from './preorderByRange.js';
import { RANGE_PK_PREFIX, rangeItems } from './rangeKeys.js';
import { reachesDepth } from './reachesDepth.js';
import { descendantsByRange, subtreeByRange } from './windowByRange.js';

/**
 * Nested set, with document keys for bounds: each node below a root has one range item whose
 * sort key is its document key (rangeKeys.ts), so that a subtree is one contiguous key range,
 * in document order. Keys are built from the sibling positions of the node's chain (its
 * lineage, kept on the node item beside its path), which leave room between any two: creating a
 * node writes its own item and no other's; moving or reordering a node rewrites the items of
 * its subtree only (through a move job when it is large). Each range item carries a copy of its
 * node, so a page of document order costs its Query and no read by id; a rename, a data update
 * or a child added or removed writes it too (one item more than the truth).
 *
 * Reads: children from the truth's edges (one Query); ancestors one BatchGet of the kept path;
 * descendants in document order one Query of the range per page (preorderByRange.ts); by depth,
 * and children several levels deep (lookahead), one Query of the range filtered by depth when
 * the subtree is small (windowByRange.ts has the rule), else one wave of child Queries per level,
 * as under adjacency (a range holds every depth). The count of a whole subtree is one
 * `Select: 'COUNT'` Query of its range (countByRange.ts); of a window with a depth bound, the
 * engine's walk of the levels above it.
 */
export const nestedSet: TreeStrategy<'nested-set'> = {
  name: 'nested-set',
  maxDepthLimit: 90,
  ...storedPath,
  keeps: 'path+lineage',
  // Its descendants by depth walk the truth's edges (its range holds every depth).
  descendantsFrom: 'truth',
  nodeFields: ({ path, lineage }) => ({ path: [...path], lineage: [...lineage] }),
  itemsFor: rangeItems,
  keyPrefixes: { pk: [RANGE_PK_PREFIX], sk: [] },
  owns: (key) => key.pk.startsWith(RANGE_PK_PREFIX),
  carriesNode: () => true,
  itemName: 'range',

  /**
   * The stored path's guard, and the parent's lineage: a reorder of an ancestor rewrites the
   * lineage of its subtree, so a write under it that read the old one fails and re-plans.
   */
  guardChain(tx, chain, now, guards) {
    storedPath.guardChain(tx, chain, now, guards);
    const parent = chain[chain.length - 1];
    if (parent) tx.check(nodeKey(parent.node.id), { equals: ['lineage', parent.node.lineage ?? []] });
  },

  descendants: descendantsByLevels,
  descendantsInBulk: descendantsByRange,
  subtreeItems: subtreeByRange,
  preorder: preorderByRange,
  checkMoveJob: checkKeyRoom,
  reaches: reachesDepth,
  countDescendants: countByRange,
};
