import {
  WALK_PATHS,
  CHANGE_ITEMS,
  HISTORY_ITEMS,
  WALK_PREORDER,
  type ContractCosts,
  KEPT_ITEMS,
  writeCost,
} from '../../contractCosts.js';

/** What the contract suite's operations cost under closure (contractCosts.ts says on what). */
export const contractCosts: ContractCosts = {
  strategy: 'closure',
  // One Query of the closure rows; rows up to distance 3 carry their nodes.
  requests: {
    nodeLookup: 1,
    nodeWithChildren: 2,
    thirtyNodesWithParentsMax: 2,
    ancestorsAtDepth20Max: 1 + 1,
    descendantsFanOut5Depth3Max: 1 + 1,
    // 155 rows of about 200 bytes in one Query, and the lookup (read by id: over 155).
    descendantsFanOut5Depth3ReadUnitsMax: 8,
    descendantsFirstPageMax: 1 + 1,
    // A Query of closure rows per node.
    descendantsOfAListOfFive: 1 + 5,
    // 7, plus the path of the 4 other nodes, plus per node 1 row deleted (old root) and 2 put,
    // plus the new parent's row (its childCount; the old parent is a root, it has none).
    itemsWrittenByMove: 7 + 4 + 3 * 5 + 1 + 2 * CHANGE_ITEMS + HISTORY_ITEMS,
    // 3, and the node's copy in its row under the root (distance 1).
    itemsWrittenByReorder: 3 + 1 + CHANGE_ITEMS + HISTORY_ITEMS,
  },
  // The lookup, then one Query of the closure rows at distances 1 to 3, which carry their nodes.
  lookahead: { nestedThree: 1 + 1, rootsNested: 1 + 1 + 2, ancestorsOfFive: 1 + 1 },
  preorder: WALK_PREORDER,
  // One count Query of the closure rows in the distance range, whatever the window.
  counts: { whole: 1 + 1, depthOne: 1, depthTwo: 1 + 1, depthThree: 1 + 1, branch: 1 + 1, listOfThree: 1 + 3 },
  // One Query of the closure rows in descending key order. PREORDER: the walk.
  backward: {
    childrenLast: 1 + 1,
    descendantsLastBounded: 1 + 1,
    descendantsLast: 1 + 1,
    descendantsBefore: 1 + 1,
    preorderLast: 1 + 4,
    preorderBefore: 1 + 5,
  },
  // One Query of the rows, which carry their nodes (past distance 3 without childCount and data,
  // which these pages do not ask for), and the node lookup: the last page of 110 reads 111 items.
  pages: { requestsMax: 1 + 1, itemsPerNodeMax: 1.01, nestedThreeOfBig: 1 + 1 },
  // Measured (contract/copyRestore.test.ts asserts them): 4.03, 5.12 and 4.03 items a node.
  copies: { itemsWrittenByCopy: 8221, itemsWrittenByDelete: 10459, itemsWrittenByRestore: 8223 },
  paths: WALK_PATHS,
  // A node's rows under its ancestors carry its name and data: a rename or a data update writes
  // the node, its edge and its `depth` rows. A create writes its two and its rows, and updates
  // its parent's node, edge and the parent's rows that carry a childCount (distance 3 at most),
  // on the condition that the last sibling is still last. A move (here under the parent's
  // sibling) rewrites the node, moves its edge, updates both parents' and rewrites its rows. A
  // reorder moves the edge and rewrites the rows (their position), checking the parent and the
  // sibling it goes before. A delete removes the node's, updates its parent's and keeps the subtree.
  writes: {
    create: (depth) => writeCost(depth === 1 ? 4 : 5, 4 + Math.min(depth - 1, 3) + depth, 1),
    rename: (depth) => writeCost(3, 2 + depth, 0),
    data: (depth) => writeCost(3, 2 + depth, 0),
    move: (depth) => writeCost(6, 3 + 2 * (2 + Math.min(depth - 1, 3)) + 1 + depth, 0, depth === 1 ? 2 : 1),
    reorder: (depth) => writeCost(depth === 1 ? 4 : 5, 3 + depth, 2),
    delete: (depth) => writeCost(4, 4 + Math.min(depth - 1, 3) + depth + KEPT_ITEMS, 0),
  },
};
