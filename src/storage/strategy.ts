import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Item, Key } from '../dynamodb/keys.js';
import type { TransactionBuilder } from '../dynamodb/transactionBuilder.js';
import type { QueryResult } from '../dynamodb/query.js';
import { notFound } from '../errors.js';
import type { CursorCodec } from './cursor.js';
import type { DepthWindow, LeftOut, NodeReader, Page, PageArgs, TreeNode } from './treeStore.js';

/**
 * The strategy contract. A strategy is one descriptor object, in its own folder under
 * storage/strategies/, listed once in strategies/strategies.ts. The engine (storage/engine/)
 * keeps the truth (node items, edge items, childCount, positions) and runs every write, the
 * delete job, `tree verify` and `tree reindex`; it asks the strategy only what differs between
 * strategies: what is stored beyond the truth, how a place in the tree is read and guarded, and
 * how ancestors and descendants are read. docs/design.md describes each strategy's answers.
 *
 * Pure members (`nodeFields`, `itemsFor`, `owns`, the guards) never do I/O: the engine derives
 * every projection write from them, so a create, a move, a delete, the delete job, verify and
 * reindex cannot disagree about which items a node has. I/O members get a StrategyContext.
 */

/**
 * A strategy: its members (StrategyMembers), and what it keeps on node items beyond the truth,
 * declared (`keeps`), so that the engine switches on it and the compiler asks for what each
 * kind needs:
 *
 * - `nothing`: the node items hold the truth alone (adjacency); a move rewrites nothing below
 *   the moved node, and holds it while it reads the subtree's height;
 * - `path`, or `path+lineage` (the sibling positions of the chain too, so that a reorder
 *   rewrites the moved subtree): the projection of a big subtree is rewritten by a move job. A
 *   strategy whose descendants by depth read that projection (`descendantsFrom: 'projection'`)
 *   gives the order they are read in (`descendantSortKey`), for the engine to answer from the
 *   truth in that same order while a job rewrites it; one that reads them from the truth's
 *   edges (`'truth'`) needs nothing more.
 */
export type TreeStrategy<Name extends string = string> = StrategyMembers<Name> & PlaceKept;

/** What a strategy keeps on node items, and what that asks of it (see TreeStrategy). */
export type PlaceKept =
  | { readonly keeps: 'nothing' }
  | { readonly keeps: 'path' | 'path+lineage'; readonly descendantsFrom: 'truth' }
  | {
      readonly keeps: 'path' | 'path+lineage';
      readonly descendantsFrom: 'projection';
      /**
       * Pure. Where node `id` (at `place`), `depth` levels below the origin, sorts among the
       * origin's descendants at that depth: `descendants` orders each depth by this key, and its
       * cursors carry `{ d: depth, s: key }` (`{ d: 0, s: '' }` for the origin itself). While a
       * move job rewrites the projection, the engine answers descendants that the move touches
       * from the truth, in this same order and with the same cursors.
       */
      descendantSortKey: (place: Place, id: string, depth: number) => string;
    };

export interface StrategyMembers<Name extends string = string> {
  /** The value of TREE_STRATEGY that selects this strategy. */
  readonly name: Name;

  /**
   * Whether the strategy keeps the path key values of each node's chain (Place.keys): its items
   * may then depend on them (an address by path), and a rename of a path key rewrites the
   * projection of the renamed node's subtree, as a move does (in its transaction, or a job).
   */
  readonly keepsKeys?: boolean;

  /**
   * The highest MAX_TREE_DEPTH the strategy accepts (the configuration refuses more): a create
   * at that depth, between two siblings, with its guards and projection items, must fit one
   * transaction of DynamoDB's 100 actions (the contract suite's depth test writes there).
   */
  readonly maxDepthLimit: number;

  /**
   * Pure. The attributes the node item keeps about the node's place, as `keeps` declares them:
   * `{ path }` to keep the ancestors, `{ path, lineage }` to keep the sibling positions of the
   * chain too, `{}` to keep nothing. What is kept here is all the engine knows of an existing node's place without a
   * read: it calls `itemsFor` with the kept place (empty lists for what is not kept). A kept
   * field is written with the node item and rewritten on every move of the node or of an
   * ancestor; a strategy that keeps the lineage has a reorder rewrite the moved subtree too.
   */
  nodeFields(place: Place): PlaceFields;

  /**
   * Pure. The projection items of node `id` at `place`: [] when the strategy keeps nothing
   * beyond the truth. Must depend on `place` only as far as `nodeFields` keeps it. The engine
   * puts them with a create, deletes them with a delete, writes the difference between the old
   * and the new place's items with a move, and verify/reindex compare a table with them. Every
   * key must satisfy `owns`.
   */
  itemsFor(id: string, place: Place): Array<Item & Key>;

  /**
   * The key prefixes of its projection items, declared beside them: partition key prefixes of
   * collections of its own (`pk`), sort key prefixes in the collections of node items (`sk`).
   * None may collide with another's (src/dynamodb/keys.test.ts); `owns` recognises them.
   */
  readonly keyPrefixes: { readonly pk: readonly string[]; readonly sk: readonly string[] };

  /** Pure. Whether a table item belongs to this strategy's projection (verify, reindex). */
  owns(key: Key): boolean;

  /**
   * Pure. Whether the projection item at `key` (one of `itemsFor`'s) also carries a copy of
   * its node's fields (name, data, position, childCount, version, ...), like the truth's edge
   * item, so that a Query of such items needs no read of the nodes by id (`nodesOf`). The
   * engine stores the node's fields in it and rewrites them, in the same transaction, with
   * every write of the node: a copy costs one more item written per rename, data update,
   * reorder or child added or removed. `false` everywhere: the items are thin.
   */
  carriesNode(key: Key): boolean;

  /**
   * Pure. The node fields that the copy at `key` leaves out (CopyLack), when `carriesNode`:
   * none by default. A copy written many times (one per ancestor) may leave out what changes
   * with every child added (childCount) or may be big (data); a read that needs them reads the
   * node by id, and writes of them leave that copy alone.
   */
  copyLacks?(key: Key): readonly CopyLack[];

  /** What `tree verify` calls one of its projection items ("stray level item ..."). */
  readonly itemName: string;

  /**
   * The chain from the root down to `node` (inclusive), every element existing (not being
   * deleted), read strongly consistent. Must fail with NOT_FOUND when an ancestor is missing
   * or being deleted. Used by creates and moves: the new parent's chain decides the new
   * node's depth, and a move whose chain holds the moving node is refused as a CYCLE.
   */
  readChain(ctx: StrategyContext, node: StoredNode): Promise<StoredNode[]>;

  /**
   * Adds to `tx` the conditions that make it fail at commit time unless every node of `chain`
   * (root first, new parent last) is still where it was read and not being deleted. Together
   * with serializable transactions, this is what makes two concurrent moves unable to build a
   * cycle together, and a create unable to land under a node being deleted. A strategy that
   * does not guard moved subtrees (guardSubtree) must also refuse a chain node held by a move
   * that takes its subtree deeper (a `hold` expiring after `now`; writePlans.ts, planHold).
   */
  guardChain(tx: TransactionBuilder, chain: readonly StoredNode[], now: number, guards: ChainGuards): void;

  /**
   * Adds to `tx` the conditions a move needs on its moved subtree (every node read, root
   * first, with its old and new path), beyond those the engine adds itself (the moving node is
   * unchanged; every rewritten node field is conditioned on its old value). This is where a
   * strategy states what a concurrent write inside the moved subtree can do to the move.
   */
  guardSubtree(tx: TransactionBuilder, subtree: readonly MovedNode[]): void;

  /**
   * For each of `nodes`, its ancestors root first, parent last ([] for a root), in order.
   * `read` is the request's batched node loader: ids read through it in one tick cost one
   * BatchGet wave for the whole request.
   */
  ancestors(ctx: StrategyContext, nodes: readonly TreeNode[], read: NodeReader): Promise<TreeNode[][]>;

  /**
   * One page of the nodes at relative depth window.minDepth..window.maxDepth below `node`
   * (minDepth 0 includes `node`), ordered by depth, then in an order the strategy defines and
   * keeps stable. `page` and `window` are valid (the engine checks them first); a cursor issued
   * for another node or window must be refused with BAD_USER_INPUT (decodeWindowCursor in
   * storage/cursor.ts). hasNextPage is exact, and no more than `page.first` edges are returned.
   * Nodes read on the way may be returned in `related`, for the request's loaders.
   */
  descendants(ctx: StrategyContext, node: TreeNode, window: DepthWindow, page: PageArgs): Promise<Page>;

  /**
   * Optional: whether any node lies `depth` or more levels below `node` (a node item, with its
   * kept place): how a move that goes deeper checks the depth limit, when the strategy answers
   * it with less than the first page of that descendants window (which it reads otherwise).
   */
  reaches?(ctx: StrategyContext, node: TreeNode, depth: number): Promise<boolean>;

  /**
   * Optional: refuses, with a TreeError and before anything is written, a move whose projection
   * a job would rewrite (the subtree is too big for one transaction) when the job could not
   * place every node of the subtree at its new place (`itemsFor` would throw for one of them).
   * A move that fits one transaction needs no such check: its items are computed before it
   * commits.
   */
  checkMoveJob?(ctx: StrategyContext, id: string, from: Place, to: Place): Promise<void>;

  /**
   * Optional: one page of descendants in document order (PREORDER) from the projection, with
   * the cursors of the engine's walk of the truth (storage/engine/reads/preorderPage.ts), or null when
   * the strategy reads this window no better than the walk. Called only while no open job
   * touches the table's projection; without it, or on null, the engine walks the truth's edges.
   */
  preorder?(ctx: StrategyContext, node: TreeNode, window: DepthWindow, page: PageArgs): Promise<Page | null>;

  /**
   * Optional: one page of a by-depth window read in bulk from the projection, in the order and
   * with the cursors of `descendants`, or null when the window is not worth reading that way
   * (the strategy's rule; `descendants` then answers). Called only while no open job touches the
   * table's projection.
   */
  descendantsInBulk?(ctx: StrategyContext, node: TreeNode, window: DepthWindow, page: PageArgs): Promise<Page | null>;

  /**
   * Optional: how the engine reads children several levels deep in bulk (ChildrenTreeRequest).
   * The projection items, carrying copies of their nodes (carriesNode), of every node 1 to
   * `depth` levels below `node` (fewer levels when the strategy's bulk read reaches less
   * far: the answer says how many), in any order; null when there are more than `limit` of
   * them. Called only while no open job touches the table's projection. Without it, children
   * are read per parent.
   */
  subtreeItems?(ctx: StrategyContext, node: TreeNode, depth: number, limit: number): Promise<SubtreeItems | null>;

  /**
   * Optional, for a strategy that keeps path keys (keepsKeys) and addresses nodes by them: the
   * ids of the nodes its address items give for `address` (path key values joined by "/") below
   * `rootId`, in one read: one node, or none; more only while a job has yet to rewrite one that
   * left. The engine trusts an id only as far as the node's kept place agrees (reads/pathLookup.ts).
   */
  addressed?(ctx: StrategyContext, rootId: string, address: string): Promise<string[]>;

  /**
   * Optional: how many nodes lie 1 to `maxDepth` levels below `node`, exactly, counted from the
   * projection (`descendantCount`); null when the strategy counts that window no better than the
   * engine, which walks the truth's edges level by level and sums their childCounts. `node` is a
   * node item with its kept place and children; `maxDepth` is at least 2, and null for the whole
   * subtree (a bound that reaches MAX_TREE_DEPTH is passed as null). Called only while no open job
   * makes the projection wrong to count from (a subtree being deleted, a move in or out of the
   * node's subtree or through it, another strategy's projection in the table); without it, or on
   * null, the engine walks the truth.
   */
  countDescendants?(ctx: StrategyContext, node: TreeNode, maxDepth: number | null): Promise<number | null>;
}

/** The node fields a projection item's copy may leave out (TreeStrategy.copyLacks). */
export type CopyLack = 'childCount' | 'data';

/** Where a node is, as the engine hands it to a strategy's pure members. */
export interface Place {
  /** Ancestor ids, root first, parent last. */
  path: readonly string[];
  /** The sibling positions of the chain: the ancestors', root first, then the node's own. */
  lineage: readonly string[];
  /**
   * The path key values of the chain below the root, the node's own last ('' where a node has
   * none; [] for a root): one per element of `path`. All '' unless the strategy keeps them
   * (`keepsKeys`).
   */
  keys: readonly string[];
}

/** What TreeStrategy.subtreeItems read: every node 1 to `depth` levels below, as items. */
export interface SubtreeItems {
  items: Item[];
  depth: number;
}

/** Place attributes a node item may keep (see TreeStrategy.nodeFields). */
export interface PlaceFields {
  /** Ancestor ids, root first. */
  path?: string[];
  /** Sibling positions of the chain, root first, the node's own last (Place.lineage). */
  lineage?: string[];
  /** Path key values of the chain below the root, the node's own last (Place.keys). */
  keys?: string[];
}

/** A node as read for a write: the node plus the internal attributes a writer conditions on. */
export interface StoredNode {
  node: TreeNode;
  /** Counts every write to the node (node item and edge copy carry the same rev). */
  rev: number;
  /** The id of the delete job removing this node's subtree; such a node reads as absent. */
  deleting: string | undefined;
  /** The IMPORT job that wrote the node item, when one did (items.ts PENDING). */
  pending?: string;
  /** The job claiming the node, if one does (engine/core/claims.ts). */
  claim?: string;
  /** Until when (epoch ms) a respacing of its children holds the node, if one ever did (respace.ts). */
  respacing?: number;
}

/** A node of a subtree, with its place as the write computed it. */
export interface PlacedNode {
  stored: StoredNode;
  place: Place;
}

/** A node of a moved subtree, with its place before and after the move. */
export interface MovedNode extends PlacedNode {
  newPlace: Place;
  /** The node's fields after the move, when the move changes them (the moved node itself). */
  moved?: TreeNode;
}

/**
 * The longest walk of parent pointers or levels that a sound tree allows: MAX_TREE_DEPTH, and a
 * margin for the levels a concurrent move may add while the walk runs. Past it the tree is
 * corrupt (a cycle), and the walk stops with an error rather than loop.
 */
export const walkLimit = (ctx: { maxTreeDepth: number }): number => ctx.maxTreeDepth + 8;

/**
 * The truth's guards on a chain, which the engine hands to `guardChain` (its own plans): a
 * strategy builds its guard from them, and imports nothing of the engine.
 */
export interface ChainGuards {
  /** The chain node is still where it was read, alive, and accepting children (not held). */
  node: (tx: TransactionBuilder, chainNode: StoredNode, now: number) => void;
}

/** An existing node (present and not being deleted) among nodes read, or NOT_FOUND naming it as `what`. */
export function existing(stored: ReadonlyMap<string, StoredNode>, id: string, what = 'node'): StoredNode {
  const node = stored.get(id);
  if (!node || node.deleting !== undefined) throw notFound(what, id);
  return node;
}

/** What the engine hands to a strategy's I/O members. Passed in, never imported as globals. */
export interface StrategyContext {
  doc: DynamoDBDocumentClient;
  table: string;
  /** MAX_TREE_DEPTH: a walk longer than this (plus a margin) means a corrupt tree. */
  maxTreeDepth: number;
  cursors: CursorCodec;
  /** Node items by id, strongly consistent, in one BatchGet wave; deleting nodes included. */
  readStored: (ids: readonly string[]) => Promise<Map<string, StoredNode>>;
  /** Live nodes by id (node items, so with their kept place fields). */
  getNodes: (ids: readonly string[]) => Promise<Map<string, TreeNode>>;
  /** Every child of a parent (edge copies), in sibling order, one strongly consistent Query. */
  readChildren: (parentId: string) => Promise<StoredNode[]>;
  /**
   * A parent's edge items in sibling order, after edge sort key `after`, up to `limit`: what a
   * page of children reads (without the edges of an import not joined to the tree yet).
   */
  queryChildren: (
    parentId: string,
    options: { after?: string; limit?: number; backwards?: boolean; reading?: readonly string[] },
  ) => Promise<QueryResult>;
  /**
   * The existing nodes of projection items, by id: from the copies they carry (carriesNode), with
   * no read, while no open job makes copies unsafe to answer from (a subtree being deleted or
   * moved); otherwise, and for items that carry no copy, read by id (getNodes).
   */
  nodesOf: (items: readonly Item[], leftOut?: LeftOut) => Promise<Map<string, TreeNode>>;
  /**
   * The attributes of the node copies a read should ask for (its ProjectionExpression, with the
   * strategy's own: withProjection in dynamodb/keyQuery.ts), when the read's nodes are wanted
   * without some fields (LeftOut); `nodesOf` then builds them so. Undefined: every attribute.
   */
  reading?: readonly string[];
  /** A node item or an edge copy (what queryChildren answers), as a node. */
  nodeFromItem: (item: Item) => TreeNode;
}
