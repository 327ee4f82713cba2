import DataLoader from 'dataloader';
import type {
  DescendantCountRequest,
  DescendantsRequest,
  Job,
  LeftOut,
  Page,
  PageArgs,
  TreeNode,
  TreeStore,
} from '../storage/treeStore.js';
import { childrenLoaders, type ChildrenKey } from './childrenLoaders.js';
import { knownNodes, type KnownNodes } from './knownNodes.js';

export type { ChildrenKey } from './childrenLoaders.js';

/**
 * Per-request loaders (never shared between requests: every process is stateless and every
 * read must see the latest writes). nodeById turns the lookups of one tick into one BatchGet
 * wave; ancestors walks all chains asked for in one tick together; childrenByParent merges
 * identical children requests, and `children` reads nested children in bulk (lookahead) when
 * the query asks for them. Every node a store call returns is primed into nodeById.
 */
export interface Loaders {
  nodeById: DataLoader<string, TreeNode | null>;
  ancestors: DataLoader<TreeNode, TreeNode[], string>;
  childrenByParent: DataLoader<ChildrenKey, Page, string>;
  /** The descendants pages asked for in one tick (a list's nodes) read together. */
  descendants: DataLoader<DescendantsRequest, Page, string>;
  /** The descendant counts asked for in one tick (a list's nodes) counted together, their reads at once. */
  descendantCount: DataLoader<DescendantCountRequest, number, string>;
  /**
   * A page of a parent's children. With `nested` (the page sizes the query asks of the
   * children's children, level by level: graphql/lookahead.ts, called only when needed), the
   * store reads the levels it can in bulk, for every parent of one tick together, and the
   * pages of the nested levels are then in childrenByParent when their resolvers ask, their
   * nodes read without the fields `leftOut` (what the operation never reads).
   */
  children(parent: TreeNode, page: PageArgs, nested: () => number[][], leftOut?: LeftOut): Promise<Page>;
  /** The open job moving each node's subtree (TreeStore.pendingJobs), for all nodes of one tick. */
  pendingJob: DataLoader<TreeNode, Job | null, string>;
  /** Keeps nodes read by other means, so that later lookups in this request hit the cache. */
  prime(nodes: Iterable<TreeNode>): void;
  /** Forgets everything (after a mutation changed the tree). */
  clearAll(): void;
}

/** The loaders of one request. */
export function createLoaders(store: TreeStore): Loaders {
  const known = knownNodes();
  const nodeById = nodeByIdLoader(store, known);
  const ancestors = ancestorsLoader(store, nodeById, known);
  const children = childrenLoaders(store, known);
  const descendants = descendantsLoader(store, known);
  const descendantCount = new DataLoader<DescendantCountRequest, number, string>(
    (requests) => store.descendantCounts(requests),
    { cacheKeyFn: ({ node, maxDepth }) => JSON.stringify([node.id, maxDepth]) },
  );
  const pendingJob = new DataLoader<TreeNode, Job | null, string>((nodes) => store.pendingJobs(nodes), {
    cacheKeyFn: (node) => node.id,
  });
  return {
    nodeById,
    ancestors,
    childrenByParent: children.byParent,
    descendants,
    descendantCount,
    children: children.page,
    pendingJob,
    prime: known.prime,
    clearAll() {
      known.clear();
      nodeById.clearAll();
      ancestors.clearAll();
      children.clearAll();
      descendants.clearAll();
      descendantCount.clearAll();
      pendingJob.clearAll();
    },
  };
}

/** Nodes by id: the known ones at once, the others in one read per tick. */
function nodeByIdLoader(store: TreeStore, known: KnownNodes): DataLoader<string, TreeNode | null> {
  return new DataLoader<string, TreeNode | null>(async (ids) => {
    const missing = ids.filter((id) => !known.has(id));
    const found = missing.length > 0 ? await store.getNodes(missing) : new Map<string, TreeNode>();
    return ids.map((id) => known.get(id) ?? found.get(id) ?? null);
  });
}

/** The ancestors of every node asked for in one tick, their chains walked together over nodeById. */
function ancestorsLoader(
  store: TreeStore,
  nodeById: DataLoader<string, TreeNode | null>,
  known: KnownNodes,
): DataLoader<TreeNode, TreeNode[], string> {
  const readNodes = async (ids: readonly string[]) =>
    (await nodeById.loadMany(ids)).map((n) => {
      if (n instanceof Error) throw n;
      return n;
    });
  return new DataLoader<TreeNode, TreeNode[], string>(
    async (nodes) => {
      const chains = await store.ancestors(nodes, readNodes);
      for (const chain of chains) known.prime(chain);
      return chains;
    },
    { cacheKeyFn: (node) => node.id },
  );
}

/** The descendants pages asked for in one tick, read together. */
function descendantsLoader(store: TreeStore, known: KnownNodes): DataLoader<DescendantsRequest, Page, string> {
  return new DataLoader<DescendantsRequest, Page, string>(
    async (requests) => {
      const pages = await store.descendantsOfMany(requests);
      for (const page of pages)
        if (!(page instanceof Error)) known.prime([...(page.related ?? []), ...page.edges.map((edge) => edge.node)]);
      return pages;
    },
    {
      // Lists of one operation leave out the same fields, but for the childCount of their nodes.
      cacheKeyFn: ({ node, window, page, order, leftOut }) =>
        JSON.stringify([
          leftOut?.includes('childCount') === true,
          node.id,
          window.minDepth,
          window.maxDepth,
          page.first,
          page.after ?? null,
          page.backwards === true,
          order ?? 'BY_DEPTH',
        ]),
    },
  );
}
