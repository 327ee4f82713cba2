import { CHANGE_ITEMS, type ContractCosts } from '../../contractCosts.js';

/** What the contract suite's operations cost under nested-set (contractCosts.ts says on what). */
export const contractCosts: ContractCosts = {
  strategy: 'nested-set',
  // Descendants by depth as under adjacency; ancestors from the kept path, as under path.
  requests: {
    nodeLookup: 1,
    nodeWithChildren: 2,
    thirtyNodesWithParentsMax: 2,
    ancestorsAtDepth20Max: 1 + 1,
    descendantsFanOut5Depth3Max: 1 + 1 + 5 + 25,
    descendantsFanOut5Depth3ReadUnitsMax: 32,
    descendantsFirstPageMax: 1 + 1 + 5 + 25,
    descendantsOfAListOfFive: 1 + 5 + 25,
    // 7, plus the path and lineage of the 4 other nodes, plus a range item deleted and put per
    // node, plus the new parent's range item (its childCount; the old parent is a root).
    itemsWrittenByMove: 7 + 4 + 2 * 5 + 1 + 2 * CHANGE_ITEMS,
    // A reorder changes the keys of the subtree: 3, the lineage of the 4 other nodes, and a
    // range item deleted and put per node.
    itemsWrittenByReorder: 3 + 4 + 2 * 5 + CHANGE_ITEMS,
  },
  // Children per parent, as under adjacency (a range holds every depth of a subtree); ancestors
  // from the kept path, as under path.
  lookahead: { nestedThree: 1 + 1 + 10 + 100, rootsNested: 1 + 2 + 5, ancestorsOfFive: 1 + 1 },
  preorder: {
    // The root's children (its edges), then the range of each of its 4 branches.
    whole: 1 + 1 + 4,
    // A depth bound: the walk (a range holds every depth).
    depthOne: 1 + 1,
    // The root's children, then doc.1's range fills the page.
    firstFive: 1 + 1 + 1,
    // One Query of doc.1's range.
    branch: 1 + 1,
  },
  // A whole subtree: one count Query of its range; below the root, its edges and one count per
  // child with children (c: 3). A depth bound: the truth's walk of the levels above it, as adjacency.
  counts: { whole: 1 + 1 + 3, depthOne: 1, depthTwo: 1 + 1, depthThree: 1 + 1 + 3, branch: 1 + 1, listOfThree: 1 + 3 },
  // Back from the end: every level of the window (a Query per parent, level by level): 1 + 4 + 12
  // parents; from a cursor at depth 2, the levels down to it. PREORDER backwards: the walk.
  backward: {
    childrenLast: 1 + 1,
    descendantsLastBounded: 1 + 1 + 4 + 12,
    descendantsLast: 1 + 1 + 4 + 12,
    descendantsBefore: 1 + 1 + 4,
    preorderLast: 1 + 4,
    preorderBefore: 1 + 5,
  },
};
