import { TreeError } from '../errors.js';

/**
 * The storage interface. The GraphQL layer and the loaders know only this file. Behind it, the
 * engine (storage/engine/) keeps the truth and drives one strategy (storage/strategies/), which
 * decides how ancestors and descendants are read and what is stored beyond the truth. Every
 * strategy gives the same answers (the contract suite checks it); only the cost differs.
 */

export type JsonObject = Record<string, unknown>;

/**
 * What one request's calls to the table cost, added up as they are made, and the budget past
 * which no call is made: the server's cost report (a DynamoDB meter, dynamodb/costMeter.ts,
 * fills it in for a store scoped with it).
 */
export interface OperationCost {
  requests: number;
  /** Of `requests`, those a read made again because it took long around a job's start or close. */
  repeatedRequests: number;
  /** Of `itemsRead`, those the repeated requests read. */
  repeatedItemsRead: number;
  readUnits: number;
  writeUnits: number;
  /** What the writes would consume on AWS (DynamoDB Local's writeUnits is not the bill). */
  awsWriteUnits: number;
  itemsWritten: number;
  itemsRead: number;
  budget?: { requests: number; itemsRead: number };
  /** The refusal, once the operation went over its budget. */
  overBudget?: TreeError;
}

/** A node as stored. `depth`, `rootId` and `path` are set when the strategy keeps them. */
export interface TreeNode {
  id: string;
  parentId: string | null;
  name: string;
  position: string;
  version: number;
  childCount: number;
  data: JsonObject | null;
  createdAt: string;
  updatedAt: string;
  /**
   * Its node type (NODE_TYPES), set at its creation and kept by every move, copy, restore and
   * undo; absent: an untyped node. A typed node's `data` holds its type's fields.
   */
  type?: string;
  /**
   * Which life of its id the node is: a stamp given when the node is made (created, copied,
   * restored; every node of one such write shares it), kept for its whole life. Versions restart
   * at 1 when an id is used again, so an undo tells a node from an earlier one of the same id by
   * this (items written before stamps have none).
   */
  incarnation?: string;
  depth?: number;
  rootId?: string;
  /** Ancestor ids, root first: kept by the path and closure strategies. */
  path?: string[];
  /** Sibling positions of the chain, root first, its own last: kept by the nested-set strategy. */
  lineage?: string[];
  /**
   * The path key values of the nodes below the root on the chain, the node's own last ('' for a
   * node without one): kept by the path strategy, for its addresses (TreeStrategy.keepsKeys).
   */
  keys?: string[];
}

/**
 * `node` with `fields` set: a new node of the same kind (a node read without some fields, LeftOut,
 * stays one: its left-out fields still throw rather than read as undefined).
 */
export function nodeWith(node: TreeNode, fields: Partial<TreeNode>): TreeNode {
  const prototype = Object.getPrototypeOf(node) as object;
  const copy = prototype === Object.prototype ? {} : (Object.create(prototype) as object);
  return Object.assign(copy, node, fields) as TreeNode;
}

/**
 * A page of a list: `first` nodes after the cursor `after` (from the start without one). With
 * `backwards`, the list is read the other way (Relay's `last`/`before`): the `first` nodes before
 * the cursor `after` (from the end without one), nearest first, and the page's `hasNextPage`
 * says whether more come before them. Cursors are the same both ways: a position in the list.
 */
export interface PageArgs {
  first: number;
  after?: string | null;
  backwards?: boolean;
}

export interface Page {
  /** In the order read (PageArgs.backwards: last first). */
  edges: Array<{ cursor: string; node: TreeNode }>;
  /** Exact: false on the last page (the first, read backwards). */
  hasNextPage: boolean;
  /** Other nodes read on the way (the request's loaders keep them). */
  related?: TreeNode[];
}

export interface DepthWindow {
  minDepth: number;
  /** null: no bound. */
  maxDepth: number | null;
}

/**
 * BY_DEPTH: by depth, then in an order the strategy defines and keeps stable. PREORDER: document
 * order (a node, then each child's subtree in sibling order), the same under every strategy.
 */
export type DescendantsOrder = 'BY_DEPTH' | 'PREORDER';

export interface DescendantsRequest {
  node: TreeNode;
  window: DepthWindow;
  page: PageArgs;
  /** BY_DEPTH when absent. */
  order?: DescendantsOrder;
  /** Fields no one reads of the page's nodes: reads may leave them out (LeftOut). */
  leftOut?: LeftOut;
}

/**
 * The node fields a read may leave out of the nodes it returns, because the operation reads none
 * of them (not even on another node): the answer is the same, with fewer bytes read and decoded.
 * A node read without one of them throws on reading it (an internal error, never a wrong value).
 */
export const OPTIONAL_FIELDS = ['name', 'data', 'version', 'createdAt', 'updatedAt'] as const;
export type OptionalField = (typeof OPTIONAL_FIELDS)[number];
/**
 * Also `childCount`, in a descendants request whose nodes no field reads it of (their
 * `childCount`, `children`, `descendants`, `descendantCount`): reads still ask for it, and only
 * copies that lack it (TreeStrategy.copyLacks) are then enough. Such nodes are kept by no cache.
 */
export type LeftOut = readonly (OptionalField | 'childCount')[];

/** How many nodes lie 1 to `maxDepth` levels below `node` (null: its whole subtree). */
export interface DescendantCountRequest {
  node: TreeNode;
  maxDepth: number | null;
}

/**
 * Children pages several levels deep from one parent: level 0 holds the page sizes asked of the
 * parent's own children, level 1 those asked of each child's children, and so on (several sizes
 * at one level when aliases ask for several). No `after`: a nested page starts at the start.
 */
export interface ChildrenTreeRequest {
  parent: TreeNode;
  levels: number[][];
  /** Fields no one reads of the pages' nodes: reads may leave them out (LeftOut). */
  leftOut?: LeftOut;
}

/** Pages of children by parent id, then by page size (`first`), with no `after`. */
export type ChildrenPages = Map<string, Map<number, Page>>;

/** Reads nodes by id (the request's batched loader); null where missing. */
export type NodeReader = (ids: readonly string[]) => Promise<Array<TreeNode | null>>;

export interface CreateNodeArgs {
  id?: string | null;
  parentId?: string | null;
  name: string;
  /** Its node type (NODE_TYPES); absent or null: untyped. */
  type?: string | null;
  data?: JsonObject | null;
  before?: string | null;
  after?: string | null;
}

export interface UpdateNodeArgs {
  id: string;
  name?: string | null;
  /** undefined: unchanged; null: cleared. */
  data?: JsonObject | null;
  /** A JSON merge patch (RFC 7386) of its data, applied to the data the write reads; not with `data`. */
  dataPatch?: JsonObject | null;
  /** The node type the caller's typed patch is of: BAD_USER_INPUT when the node is of another. */
  type?: string | null;
  expectedVersion?: number | null;
}

export interface MoveNodeArgs {
  id: string;
  newParentId?: string | null;
  before?: string | null;
  after?: string | null;
  expectedVersion?: number | null;
  /** The parent the caller expects the node to have ('' for a root): PARENT_CONFLICT otherwise. */
  expectedParentId?: string | null;
}

/** A node of a createNodes list: `parentId` names another node of the list; absent, the list's parent. */
export interface NewNodeInput {
  id?: string | null;
  parentId?: string | null;
  name: string;
  /** Its node type (NODE_TYPES); absent or null: untyped. */
  type?: string | null;
  data?: JsonObject | null;
}

export interface CreateNodesArgs {
  /** The parent of the list's top nodes (they go after its children); absent or null: they are roots. */
  parentId?: string | null;
  nodes: NewNodeInput[];
}

export interface CreateNodesOptions {
  /** Refuse (TooManyItems, writing nothing) rather than start a job when one transaction cannot hold the nodes. */
  oneTransaction?: boolean;
}

/** createNodes with `oneTransaction`, for nodes one transaction cannot hold: nothing was written. */
export class TooManyItems extends Error {
  constructor(
    readonly items: number,
    readonly limit: number,
  ) {
    super(`the nodes need ${items} items written, one transaction holds ${limit}`);
    this.name = 'TooManyItems';
  }
}

export interface CreateNodesResult {
  /** The nodes created, in the list's order. */
  nodes: TreeNode[];
  /** The IMPORT job that wrote them, when one transaction could not hold them (DONE by then). */
  job: Job | null;
}

export interface CopySubtreeArgs {
  id: string;
  /** The copy's parent; absent or null: the copy is a new root. */
  newParentId?: string | null;
  before?: string | null;
  after?: string | null;
  /** New ids: this prefix before each old id; absent: random ids. */
  idPrefix?: string | null;
  /** The copy's own path key value (its type's `@pathKey` field); absent: the original's. */
  pathKey?: string | null;
}

/** A deleted subtree kept to be restored: its root as it was, where, when, by whom, and its size. */
export interface DeletedNode {
  node: TreeNode;
  count: number;
  deletedAt: string;
  deletedBy: string | null;
}

export interface DeleteNodeArgs {
  id: string;
  expectedVersion?: number | null;
  /** The parent the caller expects the node to have ('' for a root): PARENT_CONFLICT otherwise. */
  expectedParentId?: string | null;
}

export interface DeleteResult {
  /** Nodes deleted: the node and its whole subtree. */
  deletedCount: number;
  /** The job removing a subtree too big for one transaction (already detached: reads skip it). */
  job?: Job | null;
}

export type JobKind = 'MOVE' | 'DELETE' | 'REINDEX' | 'IMPORT';
export type JobStatus = 'RUNNING' | 'DONE' | 'FAILED';

/** Long work, run by any live process until it is done (engine/jobs/). */
export interface Job {
  id: string;
  kind: JobKind;
  status: JobStatus;
  /** Nodes done so far. */
  done: number;
  /** Nodes in all, when known. */
  total: number | null;
  startedAt: string;
  /** The node whose subtree the job moves or deletes. */
  nodeId: string | null;
}

export interface CrowdedParent {
  id: string;
  depth: number;
}

export interface RespaceResult {
  /** The children given a new position. */
  respaced: number;
  /** Each of them as it is now (a move job may still be rewriting its subtree's projection). */
  moved: TreeNode[];
}

export interface JobPage {
  edges: Array<{ cursor: string; node: Job }>;
  hasNextPage: boolean;
}

/** Runs jobs in the background of this process, until stopped. */
export interface JobSweeper {
  stop(): Promise<void>;
}

/** Whose store a request has, and what it counts (TreeStore.scoped). */
export interface StoreScope {
  /** Every DynamoDB call the store makes (the jobs it starts included) is added to it. */
  cost?: OperationCost;
  /** The tenant (null or absent: the default one): its own keys (dynamodb/tenantDoc.ts) and cursors. */
  tenant?: string | null;
  /**
   * What the caller may do (CallerGrants); absent: everything. Every write checks the caller's
   * level on the nodes it touches when it reads them (NOT_FOUND, FORBIDDEN), and guards it until
   * it commits; reads of history and deleted subtrees pass over what the caller may not read.
   */
  access?: CallerGrants;
  /** Who the caller is (its subject, or its API key's name), for the records of its changes. */
  by?: string;
}

/**
 * The change logs, as live updates read them (src/live/changeHub.ts): where a reader starts,
 * what came after a number, a number given up, and the signed cursors of treeChanges.
 */
export interface ChangeFeed {
  /**
   * The changes of the tree of `rootId` after number `after`, in order, at most `limit`,
   * stopping before a number not written yet (engine/changes/changeLog.ts).
   */
  after(rootId: string, after: number, limit: number): Promise<ChangesRead>;
  /**
   * Where a reader of the tree's change log starts to get exactly the changes committed from
   * now on (engine/changes/changeLog.ts): after `seq`, save the numbers `skip`.
   */
  start(rootId: string): Promise<ChangeStart>;
  /** Gives up number `seq` of the tree's log when no change holds it: true when given up. */
  giveUp(rootId: string, seq: number): Promise<boolean>;
  /** The signed cursors of treeChanges, bound to this store's tenant. */
  readonly cursors: ChangeCursors;
}

/**
 * A store of trees, as the API uses it: its reads (the loaders and resolvers), its writes (the
 * mutations), and its change logs (live updates).
 */
export interface TreeStore extends TreeReads, TreeWrites {
  /** The strategy's name (TREE_STRATEGY). */
  readonly strategy: string;
  /**
   * The store for one request: it reads the list of open jobs once, with its first read of
   * nodes by id, and again after a mutation. Like the loaders, never shared between requests.
   */
  scoped(scope?: StoreScope): TreeStore;
  /** The change logs of this store's trees, for live updates. */
  readonly changes: ChangeFeed;
  /** The caller's access, and the grants on subtrees (docs/security.md). */
  readonly access: StoreAccess;
}

/** What a caller may do with a tree or a subtree, each level including the ones before it. */
export type AccessLevel = 'read' | 'write' | 'admin';

/**
 * What a caller's credentials give it: a level on whole trees (`trees`, by root id; '*' for
 * every tree), and the principals the grants on subtrees kept in the table name it by
 * (`sub:<subject>`, `group:<group>`, `key:<API key name>`).
 */
export interface CallerGrants {
  trees(rootId: string): AccessLevel | null;
  principals: readonly string[];
}

/** A grant on a node, inherited by its subtree. */
export interface Grant {
  nodeId: string;
  principal: string;
  level: AccessLevel;
  /** Who granted it (a subject or an API key's name); null when unknown (the CLI). */
  grantedBy: string | null;
  /** When, ISO 8601. */
  at: string;
}

/**
 * The grants on subtrees, in one store (one request): the caller's own, read once (one
 * BatchGetItem of its principals' items) and kept for the store's life, and everyone's, to list,
 * give and take. What the caller's credentials give on whole trees is the API's to add.
 */
export interface StoreAccess {
  /** Whether the store checks nothing: the caller's credentials gave it everything when it was made. */
  readonly unlimited: boolean;
  /** The highest level the caller's grants give on the node of `chain` (ids, root first, the node last). */
  grantedOn(chain: readonly string[]): Promise<AccessLevel | null>;
  /** The same, synchronously, for many chains (a page of history): the grants read first. */
  grantedLevels(): Promise<(chain: readonly string[]) => AccessLevel | null>;
  /** Forgets the caller's grants: the next check reads them again (an open subscription's re-check). */
  forget(): void;
  /** The ids of the nodes the caller's grants are on. */
  grantedIds(): Promise<string[]>;
  /** The grants on node `nodeId` (not those it inherits), by principal; one Query. */
  grantsOn(nodeId: string): Promise<Grant[]>;
  /**
   * Grants `level` on node `nodeId` to `principal` (or changes the level of its grant there),
   * the caller needing `admin` on the node, checked in the write's transaction.
   */
  grant(nodeId: string, principal: string, level: AccessLevel): Promise<Grant>;
  /** Revokes `principal`'s grant on `nodeId` (`admin` needed there): false when it had none. */
  revoke(nodeId: string, principal: string): Promise<boolean>;
  /**
   * The nodes the caller's own grants are on, none below another, in id order: the tops of what
   * is shared with it; `first` of them after `after`, a cursor of this list.
   */
  sharedTops(first: number, after?: string | null): Promise<NewestFirstPage<TreeNode>>;
}

/** What a path names (TreeReads.resolvePath): a node's id, and whether a step was one a node left. */
export interface PathMatch {
  id: string;
  moved: boolean;
  /** The node, when the lookup read it (by its address): the caller need not read it again. */
  node?: TreeNode;
}

/** What the loaders and resolvers read: nodes, pages, ancestors, descendants, counts, history, jobs. */
export interface TreeReads {
  /** Strongly consistent reads of nodes by id, in one wave; missing ids are absent. */
  getNodes(ids: readonly string[]): Promise<Map<string, TreeNode>>;
  /**
   * History, newest first: the changes to a node (`nodeId`), or every change in the tree of a
   * root (`rootId`), `first` of them after `after`, a cursor of the same history (any other is
   * BAD_USER_INPUT). It lists only the changes to nodes the caller may read where they were or
   * went (StoreScope.access): the others are passed over before the page is cut (engine/changes/readablePage.ts).
   */
  history(
    of: { nodeId: string } | { rootId: string },
    first: number,
    after?: string | null,
  ): Promise<NewestFirstPage<ChangeRecord>>;
  /**
   * The deleted subtrees kept to be restored, newest first, in trees the caller may read (the
   * others are passed over before the page is cut), after `after`, a cursor of this list.
   */
  deletedNodes(first: number, after?: string | null): Promise<NewestFirstPage<DeletedNode>>;
  /** Direct children in sibling order; parentId null lists the roots. */
  children(parentId: string | null, page: PageArgs, leftOut?: LeftOut): Promise<Page>;
  /**
   * The roots among `ids` (ids that are no root, or no node, are left out), in sibling order,
   * paged with the cursors of `children(null)`; read by id, never by reading the other roots.
   */
  rootsAmong(ids: readonly string[], page: PageArgs): Promise<Page>;
  /**
   * The node that `path` (path key values joined by "/") names below `rootId`, by id, and whether
   * a step of it is one a node left (a move, a renamed path key); null when none. The node is not
   * read: the caller reads it as any node by id (reads/pathLookup.ts).
   */
  resolvePath(rootId: string, path: string): Promise<PathMatch | null>;
  /**
   * For each request, the children pages of its levels that the strategy reads in bulk (one
   * Query of closure rows, a wave of level Queries), exactly the pages `children` would give;
   * a page it leaves out (a level too deep, a subtree too large for one bulk read, an open job,
   * a strategy with no bulk read) is for `children` to read. Requests in one wave; a request
   * that fails gives its Error without failing the others.
   */
  childrenTrees(requests: readonly ChildrenTreeRequest[]): Promise<Array<ChildrenPages | Error>>;
  /** For each node, its ancestors root first, parent last (empty for a root). */
  ancestors(nodes: readonly TreeNode[], read: NodeReader): Promise<TreeNode[][]>;
  /** Nodes at relative depth minDepth..maxDepth below `node`, in `order` (BY_DEPTH when absent), cursor-paginated. */
  descendants(node: TreeNode, window: DepthWindow, page: PageArgs, order?: DescendantsOrder): Promise<Page>;
  /**
   * Several descendants pages at once (the descendants of every node of a list): their Queries
   * in one wave, and the nodes they read by id in one BatchGet wave. In order; a request that
   * fails (a bad cursor) gives its Error without failing the others.
   */
  descendantsOfMany(requests: readonly DescendantsRequest[]): Promise<Array<Page | Error>>;
  /**
   * For each request, the exact number of nodes 1 to `maxDepth` levels below its node (0 for
   * `maxDepth` 0, the node's childCount for 1, a bound past MAX_TREE_DEPTH read as it), as every
   * read answers: as if every accepted write were complete. Their reads in one wave per level.
   * In order; a request that fails (a negative `maxDepth`) gives its Error without failing the others.
   */
  descendantCounts(requests: readonly DescendantCountRequest[]): Promise<Array<number | Error>>;
  /**
   * For each node, the open job moving the subtree it belongs to (the node or one of its
   * ancestors is being moved), or null. Costs nothing while no move job is open.
   */
  pendingJobs(nodes: readonly TreeNode[]): Promise<Array<Job | null>>;
  /** Jobs by id (finished ones included); missing ids are absent. */
  getJobs(ids: readonly string[]): Promise<Map<string, Job>>;
  /** Every job, running and finished, oldest first. */
  listJobs(page: PageArgs): Promise<JobPage>;
}

/** What the mutations do: create, update, move, delete, copy, restore and undo. */
export interface TreeWrites {
  /**
   * Undoes change `seq` of the tree of `rootId` (engine/undo/): NOT_FOUND when no change holds
   * it, CONFLICT when its node changed since. The undo's own record is the answer.
   */
  undo(rootId: string, seq: number): Promise<ChangeRecord>;
  /** Copies a subtree (engine/writes/copySubtree.ts); the copy's root is the first node of the answer. */
  copySubtree(args: CopySubtreeArgs): Promise<CreateNodesResult>;
  /** Restores the subtree deleted at `id` (engine/undo/restoreNode.ts); its root is the first node of the answer. */
  restoreNode(id: string, newParentId?: string | null): Promise<CreateNodesResult>;
  createNode(args: CreateNodeArgs): Promise<TreeNode>;
  /**
   * Creates up to 1,000 nodes (engine/createNodes.ts): in one transaction when they fit, otherwise
   * as an IMPORT job that the call waits for, whose nodes no read sees until all are written.
   */
  createNodes(args: CreateNodesArgs, options?: CreateNodesOptions): Promise<CreateNodesResult>;
  updateNode(args: UpdateNodeArgs): Promise<TreeNode>;
  moveNode(args: MoveNodeArgs): Promise<TreeNode>;
  deleteNode(args: DeleteNodeArgs): Promise<DeleteResult>;
}

/**
 * The maintenance side of a store: the jobs, reindexing, respacing and readiness, for the
 * process that serves (its sweep, its metrics), the command line and the workers. The resolvers
 * see only the TreeStore.
 */
export interface TreeAdmin {
  /** The strategy's name (TREE_STRATEGY). */
  readonly strategy: string;
  /** The store of this admin's tenant, unscoped (the command line's reads and writes). */
  readonly store: TreeStore;
  /** The admin of one tenant's trees (null: the default tenant's), its calls added to `cost` when given. */
  forTenant(tenant: string | null, cost?: OperationCost): TreeAdmin;
  /** How many jobs are running now, in every tenant (the lists of open jobs of the tenants listed with some). */
  openJobCount(): Promise<number>;
  /**
   * Starts rebuilding the projection of the strategy named `target` from the truth, as a job
   * run in the background of this process (and resumed by any live process's sweep if this one
   * stops); answers the open reindex to the same target if there is one. A reindex to another
   * target while one is open is a CONFLICT.
   */
  reindex(target: string): Promise<Job>;
  /**
   * Gives the children of `parentId` short, evenly spaced sibling positions, in their order,
   * each by a reorder, while the parent is held: creates, moves into it and reorders among its
   * children answer CONFLICT meanwhile (engine/respace.ts). Reads see the same order throughout.
   */
  respace(parentId: string): Promise<RespaceResult>;
  /**
   * The parents whose children have a position longer than `longerThan` characters, deepest
   * first (one scan of the table).
   */
  crowdedParents(longerThan: number): Promise<CrowdedParent[]>;
  /**
   * Starts this process's share of the job work: a sweep now and every half lease, which takes
   * over any running job whose runner stopped renewing its lease. Never waits for a job.
   */
  startJobs(): JobSweeper;
  /**
   * Takes up the job `jobId` of this store's tenant and runs it to its end, when it is running
   * and no live process holds its lease; false otherwise (a stream worker, told of a job record).
   */
  takeUpJob(jobId: string): Promise<boolean>;
  /** One sweep of every tenant's jobs (startJobs' periodic pass): how many it ran. */
  sweepJobs(): Promise<number>;
  /** True once the table answers. */
  ready(): Promise<boolean>;
  /**
   * The strategy the trees of each tenant with a record in the table are built for, the default
   * tenant's first (it stands for every tenant without a record of its own), each with the
   * reindex running in its tenant, if one; whatever this admin's tenant. When the default tenant
   * has no record it gets one first: this store's strategy on a table without trees; on a table
   * with trees (written by an earlier version), the strategy its items show, else this store's.
   */
  builtStrategies(): Promise<BuiltStrategy[]>;
}

/** The strategy a tenant's trees are built for, as the table records it (TreeAdmin.builtStrategies). */
export interface BuiltStrategy {
  /** null: the default tenant. */
  tenant: string | null;
  strategy: string;
  /** How it was recorded: at the first start, found in the items of an earlier version's table, or by a reindex. */
  by: 'start' | 'found' | 'reindex';
  /** The reindex running in the tenant: to `target`, `done` of `total` nodes placed so far. */
  reindex?: { jobId: string; target: string; done: number; total: number | null };
}

/**
 * The records of changes, as the store answers them (engine/changes/ writes and reads them):
 * each in the change log of the tree it happened in, at its number in that tree's sequence.
 */
export type ChangeKind =
  'CREATED' | 'UPDATED' | 'MOVED' | 'DELETED' | 'RESTORED' | 'COPIED' | 'JOB_PROGRESS' | 'JOB_DONE';

/** Where a node is: its parent (null: a root) and its ancestors' ids, root first, the parent last. */
export interface ChangePlace {
  parentId: string | null;
  path: readonly string[];
}

/** What a change is, as its write knows it. */
export interface ChangeFacts {
  kind: ChangeKind;
  nodeId: string;
  /** The node's fields after the change (none after a delete). */
  node?: TreeNode;
  /** The node's fields before the change (updates, moves, deletes): what an undo puts back. */
  prior?: TreeNode;
  /** Where the node was (updates, moves, deletes, jobs). */
  from?: ChangePlace;
  /** Where the node is now (creates, updates, moves). */
  to?: ChangePlace;
  /** Nodes the change touched: a delete's, a created or moved subtree's, when known. */
  count?: number;
  /** The job a change is about (JOB_PROGRESS, JOB_DONE), or runs as (a big delete). */
  job?: { id: string; kind: string; status: string };
}

/** A change as recorded: its facts, its tree, its number there, when, and by whom. */
export interface ChangeRecord extends ChangeFacts {
  rootId: string;
  seq: number;
  at: string;
  by: string | null;
  /** The same change in another tree's log (a move between trees): that tree and its number there. */
  other?: { rootId: string; seq: number };
}

/**
 * A page of a list kept newest first (history, deleted subtrees): its entries with their
 * cursors (each signed when read), whether more follow, and the cursor the next page starts
 * after: the last entry's, or, on a page ended early after passing over many entries the
 * caller may not see, one past them.
 */
export interface NewestFirstPage<T> {
  edges: Array<{ cursor: string; node: T }>;
  hasNextPage: boolean;
  endCursor: string | null;
}

/**
 * A read of history, newest first: each change with the position (a sort key, or a number of
 * the tree's log) the next read starts after it.
 */
export interface HistoryPage {
  entries: Array<{ record: ChangeRecord; after: string }>;
  hasNextPage: boolean;
}

/** A change's id: its tree and its number there. */
export const changeIdOf = (record: Pick<ChangeRecord, 'rootId' | 'seq'>): string =>
  Buffer.from(JSON.stringify(['change', record.rootId, record.seq])).toString('base64url');

/** The tree and number of a change's id; BAD_USER_INPUT for anything else. */
export function decodeChangeId(id: string, field = 'changeId'): { rootId: string; seq: number } {
  try {
    const [tag, rootId, seq] = JSON.parse(Buffer.from(id, 'base64url').toString('utf8')) as unknown[];
    if (tag === 'change' && typeof rootId === 'string' && Number.isSafeInteger(seq) && (seq as number) > 0)
      return { rootId, seq: seq as number };
  } catch {
    // reported below
  }
  throw new TreeError('BAD_USER_INPUT', `${field} is not the id of a change`, { field });
}

/** Where a reader starts in a tree's log: after number `seq`, save the numbers in `skip` (committed already). */
export interface ChangeStart {
  seq: number;
  skip: number[];
}

/** The changes of a tree read after a number, in order, up to the first number not written yet. */
export interface ChangesRead {
  /** The changes read, in sequence order (numbers given up are left out). */
  changes: ChangeRecord[];
  /** The last number read (given up or not): where the next read starts. */
  last: number;
  /** Whether the read stopped at its limit: more may follow at once. */
  more: boolean;
  /**
   * A number not written yet, with later ones written: its write is in flight, or its writer
   * died. The reader waits for it, and gives it up past its patience (ChangeFeed.giveUp).
   */
  missing?: number;
  /**
   * With `missing`, every number not written yet below the highest one read, `missing` first:
   * a reader gives up together those it waited for past its patience, not one per patience.
   */
  holes?: number[];
}

/**
 * Where a treeChanges subscriber stands: after number `seq` of the change log of the tree of
 * `rootId`, save the numbers in `skip` (above `seq`, committed before the subscription began:
 * not for it). `at`: when that position was reached (a cursor older than the retention is
 * refused: its changes may be gone). `watch`: the watched node and its ancestors' ids (root
 * first) at that position, so that a resume follows the node from there as the subscription
 * did, into another tree included; absent, the node is watched from where it is now.
 */
export interface ChangeCursor {
  rootId: string;
  seq: number;
  at: number;
  skip: readonly number[];
  watch?: { nodeId: string; path: readonly string[] };
}

/** The signed codec of the cursors of treeChanges (the tenant's: one of another tenant is refused). */
export interface ChangeCursors {
  encode(cursor: ChangeCursor): string;
  /** BAD_USER_INPUT for anything but a cursor `encode` made with the same secret and tenant. */
  decode(raw: string): ChangeCursor;
}
