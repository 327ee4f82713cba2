import {
  WALK_PATHS,
  CHANGE_ITEMS,
  HISTORY_ITEMS,
  WALK_PREORDER,
  type ContractCosts,
  KEPT_ITEMS,
  writeCost,
} from '../../contractCosts.js';

/** What the contract suite's operations cost under path (contractCosts.ts says on what). */
export const contractCosts: ContractCosts = {
  strategy: 'path',
  // One Query per depth in one wave; the level items carry the nodes.
  requests: {
    nodeLookup: 1,
    nodeWithChildren: 2,
    thirtyNodesWithParentsMax: 2,
    ancestorsAtDepth20Max: 1 + 1,
    descendantsFanOut5Depth3Max: 1 + 3,
    // 155 level items of about 250 bytes in 3 Queries, and the lookup (read by id: over 155).
    descendantsFanOut5Depth3ReadUnitsMax: 11,
    descendantsFirstPageMax: 1 + 3,
    // Per node, its 2 depths in one wave (the first one's size is its childCount); their
    // childCounts say that the third is empty.
    descendantsOfAListOfFive: 1 + 5 * 2,
    // 7, plus the path of the 4 other nodes, plus a level item deleted and put per node, plus
    // both parents' level items (their childCount).
    itemsWrittenByMove: 7 + 4 + 2 * 5 + 2 + 2 * CHANGE_ITEMS + HISTORY_ITEMS,
    // 3, and the node's copy in its level item (the path does not change).
    itemsWrittenByReorder: 3 + 1 + CHANGE_ITEMS + HISTORY_ITEMS,
  },
  // The lookup, then one Query per level, in one wave: level items carry their nodes. Roots:
  // their page, the list of open jobs (no node was read before), 2 levels of lr0 and lr1.
  lookahead: { nestedThree: 1 + 3, rootsNested: 1 + 1 + 2 * 2, ancestorsOfFive: 1 + 1 },
  preorder: WALK_PREORDER,
  // A count Query per depth past the first (the childCount), LEVELS_PER_WAVE (8) depths a wave, the
  // wave that meets an empty depth the last: an open window counts 8 depths below the first.
  counts: { whole: 1 + 8, depthOne: 1, depthTwo: 1 + 1, depthThree: 1 + 2, branch: 1 + 8, listOfThree: 1 + 3 * 8 },
  // The depth Queries in descending key order, in one wave: 3 depths when bounded, a wave of 8 to
  // find the last depth when not, the 2 depths up from a cursor at depth 2. PREORDER: the walk.
  backward: {
    childrenLast: 1 + 1,
    descendantsLastBounded: 1 + 3,
    descendantsLast: 1 + 8,
    descendantsBefore: 1 + 2,
    preorderLast: 1 + 4,
    preorderBefore: 1 + 5,
  },
  // One Query per depth the page spans, each asking for what the page still needs (page 1: depths
  // 1 to 3), and the lookup; the last page finds that depth 5 is empty.
  pages: { requestsMax: 4, itemsPerNodeMax: 1.01, nestedThreeOfBig: 1 + 3 },
  // Measured (contract/copyRestore.test.ts asserts them): 3.04, 4.11 and 3.04 items a node.
  copies: { itemsWrittenByCopy: 6199, itemsWrittenByDelete: 8397, itemsWrittenByRestore: 6201 },
  // A path named now from a tree's root: its address, then the node (with the open jobs'
  // summary). Otherwise (an inner node's path, an old one) the address read finds nothing, and
  // the walk answers.
  paths: {
    current: () => 2,
    inner: (steps) => 1 + WALK_PATHS.inner(steps),
    old: (steps) => 1 + WALK_PATHS.old(steps),
    missing: (found) => 1 + WALK_PATHS.missing(found),
  },
  // A rename or a data update writes the node, its edge under its parent and its level item. A
  // create writes its three and updates its parent's (the childCount), on the condition that the
  // last sibling is still last. A move rewrites the node's three and both parents' (the level
  // item moves: deleted and put). A reorder moves the edge (deleted and put) and updates the
  // level item, checking the parent and the sibling it goes before. A delete removes the node's
  // three, updates its parent's and keeps the subtree.
  writes: {
    create: (depth) => writeCost(depth === 1 ? 4 : 5, 6, 1),
    rename: () => writeCost(3, 3, 0),
    data: () => writeCost(3, 3, 0),
    move: (depth) => writeCost(6, 11, 0, depth === 1 ? 2 : 1),
    reorder: (depth) => writeCost(depth === 1 ? 4 : 5, 4, 2),
    delete: () => writeCost(4, 6 + KEPT_ITEMS, 0),
  },
};
