/**
 * What every change writes besides its own items, in each tree it changes: its record in the
 * tree's change log, in its transaction, and the tree's sequence, counted on (engine/changes/).
 */
export const CHANGE_ITEMS = 2;

/** What every change writes once, whatever the trees it changes: its copy in its node's history. */
export const HISTORY_ITEMS = 1;

/**
 * The exact DynamoDB cost of the contract suite's operations under a strategy (upper bounds where
 * batching may do better), declared beside the strategy (`strategies/<folder>/contractCosts.ts`):
 * part of what a strategy promises, as its descriptor is. The suite
 * (test/integration/contract/costs, lookahead and preorder) asserts them on the fixtures each
 * field names; a strategy without the file fails the suite, naming it.
 */
export interface ContractCosts {
  /** The strategy's name (TREE_STRATEGY). */
  strategy: string;
  requests: RequestCosts;
  lookahead: LookaheadCosts;
  preorder: PreorderCosts;
  counts: CountCosts;
  backward: BackwardCosts;
  pages: PageCosts;
  copies: CopyCosts;
  paths: PathCosts;
  writes: WriteCosts;
}

/** The writes contract/writeCosts.test.ts measures. */
export type WriteKind = 'create' | 'rename' | 'data' | 'move' | 'reorder' | 'delete';

/**
 * contract/writeCosts.test.ts: the exact cost of each kind of write of a node at `depth` (1 or
 * 5) carrying 200 bytes of data: requests, items written and the write units AWS would bill.
 * A create makes a leaf; a move takes a leaf under its parent's sibling (at depth 1: another
 * tree's root); a reorder puts a leaf first among its siblings; a delete removes a leaf.
 */
export type WriteCosts = Record<WriteKind, (depth: number) => WriteCost>;

export interface WriteCost {
  requests: number;
  itemsWritten: number;
  awsWriteUnits: number;
}

/**
 * contract/paths.test.ts, under NODE_TYPES: the requests of `nodeByPath` (exact), the read of the
 * node found included, for a path of `steps` steps.
 */
export interface PathCosts {
  /** A path from a tree's root that names a node now. */
  current: (steps: number) => number;
  /** A path from a node that is no root (rootId an inner node) that names a node now. */
  inner: (steps: number) => number;
  /** An old path (a step is a path key a node left) that still finds its node. */
  old: (steps: number) => number;
  /** A path that names nothing: its first `found` steps exist, the next does not. */
  missing: (found: number) => number;
}

/** The walk (engine/reads/pathLookup.ts): one GetItem a step, then the node's read. */
export const WALK_PATHS: PathCosts = {
  current: (steps) => steps + 1,
  inner: (steps) => steps + 1,
  old: (steps) => steps + 1,
  missing: (found) => found + 1,
};

/**
 * contract/copyRestore.test.ts: items written (exact, or one more when the job rewrites the
 * summary of the open jobs) by a copy of a 2,041-node subtree (fan-outs
 * 40 and 50, data on every node) as a new root, an IMPORT job; by the delete of that copy, a
 * DELETE job, what it keeps to be restored included; and by its restore, an IMPORT job.
 */
export interface CopyCosts {
  itemsWrittenByCopy: number;
  itemsWrittenByDelete: number;
  itemsWrittenByRestore: number;
}

/** contract/costs.test.ts: requests, read units and items written of single operations. */
export interface RequestCosts {
  /** `node(id)` selecting stored fields (not depth or rootId, which adjacency derives): one BatchGetItem. */
  nodeLookup: number;
  /** `node(id) { children { nodes { id } } }`: the lookup plus one Query. */
  nodeWithChildren: number;
  /** 30 aliased `node(id:) { parent { id } }`: batched, at most this many. */
  thirtyNodesWithParentsMax: number;
  /** `ancestors` of a node at depth 20, lookup included (exact). */
  ancestorsAtDepth20Max: number;
  /** `descendants(maxDepth: 3, first: 1000)` of the root of a fan-out-5, depth-3 tree (155 nodes), lookup included. */
  descendantsFanOut5Depth3Max: number;
  /**
   * Read units of that read, at most: a Query is billed by the size it reads (4 KB a unit,
   * strongly consistent), a BatchGet by the item (a unit each, however small).
   */
  descendantsFanOut5Depth3ReadUnitsMax: number;
  /** The same with the default page of 100, lookup included. */
  descendantsFirstPageMax: number;
  /**
   * `nodes(ids: fan.0 .. fan.4) { descendants(first: 100) }`, 30 descendants each, lookup
   * included (exact): the five pages read their nodes in one BatchGet wave.
   */
  descendantsOfAListOfFive: number;
  /**
   * Items written by a move of a 5-node subtree from depth 1 to depth 2, into another tree
   * (exact): with CHANGE_ITEMS in each of the two trees.
   */
  itemsWrittenByMove: number;
  /** Items written by a reorder of a 5-node subtree at depth 1 among its siblings (exact), CHANGE_ITEMS included. */
  itemsWrittenByReorder: number;
}

/** contract/lookahead.test.ts, on a tree of fan-out 10 and depth 3: requests, lookup included. */
export interface LookaheadCosts {
  /** `children(first: 10)` three levels deep from the root of fan-out 10. */
  nestedThree: number;
  /** `roots { children(first: 10) { nodes { children(first: 10) } } }` over ROOTS. */
  rootsNested: number;
  /** `nodes(ids: 5 leaves) { ancestors { id } }` at depth 3. */
  ancestorsOfFive: number;
}

/** contract/preorder.test.ts: requests of PREORDER reads of `doc` (and of doc.1's subtree), its lookup included. */
export interface PreorderCosts {
  /** The whole subtree of the root. */
  whole: number;
  /** `maxDepth: 1`. */
  depthOne: number;
  /** `first: 5`. */
  firstFive: number;
  /** The whole subtree of doc.1 (12 nodes, 3 of them parents). */
  branch: number;
}

/**
 * contract/pageCosts.test.ts: every descendants of a 1,110- and of an 11,110-node subtree
 * (fan-out 10, depths 3 and 4), paged whole by 1,000 (by depth, no bound), each page's cost.
 */
export interface PageCosts {
  /** The most requests of one page, its lookup included. */
  requestsMax: number;
  /** The most items one page reads per node it returns, its lookup's item included. */
  itemsPerNodeMax: number;
  /**
   * Requests of nested `children(first: 10)` three levels deep from the root of the 11,110-node
   * subtree (exact, lookup included): LookaheadCosts.nestedThree where it costs what it does on
   * a small subtree.
   */
  nestedThreeOfBig: number;
}

/**
 * contract/descendantCount.test.ts: requests of `descendantCount` on `c` (fan-out 3, 2, 2: 21
 * descendants, depth 3), its lookup included.
 */
export interface CountCosts {
  /** No bound: the whole subtree of the root. */
  whole: number;
  /** `maxDepth: 1`: the node's childCount, nothing read but the lookup. */
  depthOne: number;
  /** `maxDepth: 2`. */
  depthTwo: number;
  /** `maxDepth: 3`. */
  depthThree: number;
  /** The whole subtree of c.1, a node of depth 1 (6 descendants: 2 children, of 2 children each). */
  branch: number;
  /** `nodes(ids: c.0, c.1, c.2) { descendantCount }`: three branches, counted together. */
  listOfThree: number;
}

/**
 * contract/backwardPaging.test.ts: requests of pages read backwards (`last`/`before`), lookup
 * included, on `bw` (fan-out 4, 3, 2: 40 descendants, depth 3) and `wide` (23 children).
 */
export interface BackwardCosts {
  /** `children(last: 5)` of `wide`. */
  childrenLast: number;
  /** `descendants(maxDepth: 3, last: 10)` of `bw`. */
  descendantsLastBounded: number;
  /** `descendants(last: 10)` of `bw`: the window has no bound. */
  descendantsLast: number;
  /** `descendants(last: 5, before:)` the cursor of the 8th (depth 2). */
  descendantsBefore: number;
  /** `descendants(order: PREORDER, last: 5)` of `bw`. */
  preorderLast: number;
  /** `descendants(order: PREORDER, last: 5, before:)` the cursor of the 20th. */
  preorderBefore: number;
}

/**
 * The engine's walk of the truth's edges in document order: the lookup, then one Query per parent
 * the page goes through.
 */
export const WALK_PREORDER: PreorderCosts = {
  // The 1 + 4 + 12 parents of the subtree.
  whole: 1 + 17,
  // The root's children only.
  depthOne: 1 + 1,
  // doc.1 and its first subtree, doc.1.0: the root, doc.1 and doc.1.0 on the way, and the
  // children asked for ahead of doc.2 and doc.1.1, which the counts said it might reach.
  firstFive: 1 + 5,
  // doc.1 and its 3 children.
  branch: 1 + 4,
};

/**
 * The cost of a write of `written` items of its own and `checks` condition checks, in one
 * transaction, that records one change in `trees` trees (two for a move between trees): each
 * tree's record and sequence (CHANGE_ITEMS) and the change's copy in its node's history
 * (HISTORY_ITEMS) besides. Every item of these writes is under 1 KB: 2 write units each in the
 * transaction, condition checks included, and 1 for each sequence, counted on alone.
 */
export const writeCost = (requests: number, written: number, checks: number, trees = 1): WriteCost => ({
  requests,
  itemsWritten: written + trees * CHANGE_ITEMS + HISTORY_ITEMS,
  awsWriteUnits: 2 * (written + checks + trees + HISTORY_ITEMS) + trees,
});

/**
 * The items of a leaf's delete that keep it to be restored: its entry (which holds the node as it
 * was) and its place in the list; a bigger subtree's adds the packs of its nodes.
 */
export const KEPT_ITEMS = 2;
