import { WALK_PREORDER, type ContractCosts } from '../../contractCosts.js';

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
    descendantsFirstPageMax: 1 + 1 + 5 + 25,
    // A Query per parent, level by level: edge copies carry the nodes.
    descendantsOfAListOfFive: 1 + 5 + 25,
    // The node, its old and new edge, both parents' node item and edge copy: any subtree size.
    // 7, and the hold on the moved node (the move goes one level deeper).
    itemsWrittenByMove: 7 + 1,
    // The node, its old and new edge.
    itemsWrittenByReorder: 3,
  },
  // A Query per parent (DynamoDB cannot merge Queries of different partitions), in one wave
  // per level: 1 lookup + 1 + 10 + 100. Roots: their page, lr0's and lr1's children, then their
  // 5 children's.
  lookahead: { nestedThree: 1 + 1 + 10 + 100, rootsNested: 1 + 2 + 5, ancestorsOfFive: 1 + 3 },
  // And, below doc.1, the walk of its parent pointer for the depths (adjacency keeps no path).
  preorder: { ...WALK_PREORDER, branch: WALK_PREORDER.branch + 1 },
};
