import {
  WALK_PATHS,
  CHANGE_ITEMS,
  HISTORY_ITEMS,
  WALK_PREORDER,
  type ContractCosts,
  KEPT_ITEMS,
  writeCost,
} from '../../contractCosts.js';

/** What the contract suite's operations cost under adjacency (contractCosts.ts says on what). */
export const contractCosts: ContractCosts = {
  strategy: 'adjacency',
  requests: {
    nodeLookup: 1,
    nodeWithChildren: 2,
    thirtyNodesWithParentsMax: 3,
    ancestorsAtDepth20Max: 1 + 20,
    descendantsFanOut5Depth3Max: 1 + 1 + 5 + 25,
    // 32 small reads: a unit each.
    descendantsFanOut5Depth3ReadUnitsMax: 32,
    // The page of 100 ends among the 125 nodes at depth 3: the children of its first 15 parents.
    descendantsFirstPageMax: 1 + 1 + 5 + 15,
    // A Query per parent, level by level: edge copies carry the nodes.
    descendantsOfAListOfFive: 1 + 5 + 25,
    // The node, its old and new edge, both parents' node item and edge copy: any subtree size.
    // 7, and the hold on the moved node (the move goes one level deeper).
    itemsWrittenByMove: 7 + 1 + 2 * CHANGE_ITEMS + HISTORY_ITEMS,
    // The node, its old and new edge.
    itemsWrittenByReorder: 3 + CHANGE_ITEMS + HISTORY_ITEMS,
  },
  // A Query per parent (DynamoDB cannot merge Queries of different partitions), in one wave
  // per level: 1 lookup + 1 + 10 + 100. Roots: their page, lr0's and lr1's children, then their
  // 5 children's.
  lookahead: { nestedThree: 1 + 1 + 10 + 100, rootsNested: 1 + 2 + 5, ancestorsOfFive: 1 + 3 },
  // And, below doc.1, the walk of its parent pointer for the depths (adjacency keeps no path).
  preorder: { ...WALK_PREORDER, branch: WALK_PREORDER.branch + 1 },
  // The truth's walk: the childCounts of a level give the next level's size, so a bound of k
  // reads levels 1 to k - 1, a Query per node that has children. c: 1 + 3 + 6 parents; c.1: 1 + 2.
  counts: { whole: 1 + 10, depthOne: 1, depthTwo: 1 + 1, depthThree: 1 + 1 + 3, branch: 1 + 3, listOfThree: 1 + 3 * 3 },
  // Back from the end: every level of the window (a Query per parent, level by level): 1 + 4 + 12
  // parents; from a cursor at depth 2, the levels down to it. PREORDER: the walk, a Query per parent.
  backward: {
    childrenLast: 1 + 1,
    descendantsLastBounded: 1 + 1 + 4 + 12,
    descendantsLast: 1 + 1 + 4 + 12,
    descendantsBefore: 1 + 1 + 4,
    preorderLast: 1 + 4,
    preorderBefore: 1 + 5,
  },
  // A Query per parent whose children the page returns (100 for a page of leaves), and the
  // Queries that find those parents (one per grandparent, and the rest of the cursor's chain).
  pages: { requestsMax: 117, itemsPerNodeMax: 1.13, nestedThreeOfBig: 1 + 1 + 10 + 100 },
  // Measured (contract/copyRestore.test.ts asserts them): 2.03, 3.08 and 2.03 items a node.
  copies: { itemsWrittenByCopy: 4138, itemsWrittenByDelete: 6287, itemsWrittenByRestore: 4140 },
  paths: WALK_PATHS,
  // The node's chain is read a level at a time, and each ancestor's version is checked in the
  // write's transaction (the chain guard). A rename or a data update writes the node and its edge
  // under its parent. A create writes its two and updates its parent's (the childCount), on the
  // condition that the last sibling is still last. A move also reads the new parent's chain,
  // moves the edge (deleted and put) and updates both parents'. A reorder moves the edge and
  // checks the sibling it goes before. A delete removes the node's two, updates its parent's and
  // keeps the subtree.
  writes: {
    create: (depth) => writeCost(3 + depth, 4, depth),
    rename: (depth) => writeCost(3 + depth, 2, depth),
    data: (depth) => writeCost(3 + depth, 2, depth),
    move: (depth) => (depth === 1 ? writeCost(7, 7, 0, 2) : writeCost(14, 7, depth - 1)),
    reorder: (depth) => writeCost(depth === 1 ? 5 : 13, 3, depth + 1),
    delete: (depth) => writeCost(4 + depth, 4 + KEPT_ITEMS, depth - 1),
  },
};
