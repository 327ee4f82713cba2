import type { ContractCosts } from '../../contractCosts.js';

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
    itemsWrittenByMove: 7 + 4 + 2 * 5 + 1,
    // A reorder changes the keys of the subtree: 3, the lineage of the 4 other nodes, and a
    // range item deleted and put per node.
    itemsWrittenByReorder: 3 + 4 + 2 * 5,
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
};
