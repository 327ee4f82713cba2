import {
  WALK_PATHS,
  CHANGE_ITEMS,
  HISTORY_ITEMS,
  type ContractCosts,
  KEPT_ITEMS,
  writeCost,
} from '../../contractCosts.js';

/** What the contract suite's operations cost under nested-set (contractCosts.ts says on what). */
export const contractCosts: ContractCosts = {
  strategy: 'nested-set',
  // A small subtree by depth: one Query of its range, filtered by depth (windowByRange.ts);
  // ancestors from the kept path, as under path.
  requests: {
    nodeLookup: 1,
    nodeWithChildren: 2,
    thirtyNodesWithParentsMax: 2,
    ancestorsAtDepth20Max: 1 + 1,
    descendantsFanOut5Depth3Max: 1 + 1,
    // 155 range items of about 250 bytes in one Query (1.25 times closure's 8: the path and lineage), and the lookup.
    descendantsFanOut5Depth3ReadUnitsMax: 10,
    descendantsFirstPageMax: 1 + 1,
    // A Query of its range per node.
    descendantsOfAListOfFive: 1 + 5,
    // 7, plus the path and lineage of the 4 other nodes, plus a range item deleted and put per
    // node, plus the new parent's range item (its childCount; the old parent is a root).
    itemsWrittenByMove: 7 + 4 + 2 * 5 + 1 + 2 * CHANGE_ITEMS + HISTORY_ITEMS,
    // A reorder changes the keys of the subtree: 3, the lineage of the 4 other nodes, and a
    // range item deleted and put per node.
    itemsWrittenByReorder: 3 + 4 + 2 * 5 + CHANGE_ITEMS + HISTORY_ITEMS,
  },
  // The lookup, then one Query of the range filtered to the 3 levels (each root its own).
  lookahead: { nestedThree: 1 + 1, rootsNested: 1 + 3, ancestorsOfFive: 1 + 1 },
  // One Query of the subtree's range (a root's: its tree's collection) per page.
  preorder: { whole: 1 + 1, depthOne: 1 + 1, firstFive: 1 + 1, branch: 1 + 1 },
  // A whole subtree: one count Query of its range. A depth bound: the truth's walk of the levels
  // above it, as adjacency (a range holds every depth).
  counts: { whole: 1 + 1, depthOne: 1, depthTwo: 1 + 1, depthThree: 1 + 1 + 3, branch: 1 + 1, listOfThree: 1 + 3 },
  // Back from the end: every level of the window (a Query per parent, level by level): 1 + 4 + 12
  // parents; from a cursor at depth 2, the levels down to it (a range is read for first pages
  // only). PREORDER backwards: the walk.
  backward: {
    childrenLast: 1 + 1,
    descendantsLastBounded: 1 + 1 + 4 + 12,
    descendantsLast: 1 + 1 + 4 + 12,
    descendantsBefore: 1 + 1 + 4,
    preorderLast: 1 + 4,
    preorderBefore: 1 + 5,
  },
  // A first page within twice its size of range items is one Query of the range (the small
  // subtree's: 1,111 items for 1,000 nodes); later pages, and the big subtree's, walk the parents
  // as under adjacency, the big one's first page after the Query that found its range longer
  // than 2,000 items (3 items read per node returned).
  // Nested children of a subtree past RANGE_ITEMS: the lookup, a probe of its range that stops at
  // 2,000 items, the root's children, their nodes in one BatchGet wave, and a range Query each.
  pages: { requestsMax: 117, itemsPerNodeMax: 3.01, nestedThreeOfBig: 1 + 1 + 1 + 1 + 10 },
  // Measured (contract/copyRestore.test.ts asserts them): 3.04, 4.11 and 3.04 items a node.
  copies: { itemsWrittenByCopy: 6198, itemsWrittenByDelete: 8396, itemsWrittenByRestore: 6200 },
  paths: WALK_PATHS,
  // A rename or a data update writes the node, its edge under its parent and its range item. A
  // create writes its three and updates its parent's (a root has no range item), on the
  // condition that the last sibling is still last. A move rewrites the node's three (the range
  // item moves: deleted and put) and updates both parents'. A reorder moves the edge and the
  // range item, checking the parent and the sibling it goes before. A delete removes the node's
  // three, updates its parent's and keeps the subtree.
  writes: {
    create: (depth) => writeCost(depth === 1 ? 4 : 5, depth === 1 ? 5 : 6, 1),
    rename: () => writeCost(3, 3, 0),
    data: () => writeCost(3, 3, 0),
    move: (depth) => writeCost(6, depth === 1 ? 9 : 11, 0, depth === 1 ? 2 : 1),
    reorder: (depth) => writeCost(depth === 1 ? 4 : 5, 5, 2),
    delete: (depth) => writeCost(4, (depth === 1 ? 5 : 6) + KEPT_ITEMS, 0),
  },
};
