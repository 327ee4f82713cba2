import DataLoader from 'dataloader';
import type {
  ChildrenPages,
  ChildrenTreeRequest,
  DescendantCountRequest,
  DescendantsRequest,
  Job,
  LeftOut,
  Page,
  PageArgs,
  TreeNode,
  TreeStore,
} from '../storage/treeStore.js';

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

export interface ChildrenKey extends PageArgs {
  parentId: string | null;
  /** The fields the operation never reads (not part of the key: one request, one operation). */
  leftOut?: LeftOut;
}

export function createLoaders(store: TreeStore): Loaders {
  // Nodes read by other means (pages of children, descendants, ancestors), by id: a lookup
  // finds them there instead of reading them. Kept in a plain map rather than primed into
  // nodeById one promise each (a page of a thousand nodes is often never looked up by id).
  const known = new Map<string, TreeNode>();
  const nodeById = new DataLoader<string, TreeNode | null>(async (ids) => {
    const missing = ids.filter((id) => !known.has(id));
    const found = missing.length > 0 ? await store.getNodes(missing) : new Map<string, TreeNode>();
    return ids.map((id) => known.get(id) ?? found.get(id) ?? null);
  });
  // A node already known stays: it may be the node item, which carries more than a copy of the
  // same node (the stored path, under path and closure). Mutations clear everything.
  // A node read without its childCount (LeftOut) serves its own list only.
  const keep = (node: TreeNode) => {
    if (!known.has(node.id) && Object.hasOwn(node, 'childCount')) known.set(node.id, node);
  };
  const prime = (nodes: Iterable<TreeNode>) => {
    for (const node of nodes) keep(node);
  };
  const readNodes = async (ids: readonly string[]) =>
    (await nodeById.loadMany(ids)).map((n) => {
      if (n instanceof Error) throw n;
      return n;
    });
  const ancestors = new DataLoader<TreeNode, TreeNode[], string>(
    async (nodes) => {
      const chains = await store.ancestors(nodes, readNodes);
      for (const chain of chains) prime(chain);
      return chains;
    },
    { cacheKeyFn: (node) => node.id },
  );
  // Children pages known before they are asked for (read in bulk by childrenTree).
  const primed = new Set<string>();
  const childrenKey = (key: ChildrenKey) =>
    JSON.stringify([key.parentId, key.first, key.after ?? null, key.backwards === true]);
  const childrenByParent = new DataLoader<ChildrenKey, Page, string>(
    async (keys) =>
      Promise.all(
        // One failing key (a bad cursor) must not fail the others.
        keys.map(async (key) => {
          try {
            const page = await store.children(key.parentId, key, key.leftOut);
            prime(page.edges.map((edge) => edge.node));
            return page;
          } catch (error) {
            return error as Error;
          }
        }),
      ),
    { cacheKeyFn: childrenKey },
  );
  const childrenTree = new DataLoader<ChildrenTreeRequest, ChildrenPages, string>(
    async (asked) => {
      // Aliases of `children` on one parent ask for different levels: one read serves them all.
      const merged = new Map<string, ChildrenTreeRequest>();
      // All from one operation: they leave out the same fields.
      for (const { parent, levels, leftOut } of asked) {
        const known = merged.get(parent.id)?.levels ?? [];
        const depth = Math.max(known.length, levels.length);
        const union = Array.from({ length: depth }, (_, i) => [
          ...new Set([...(known[i] ?? []), ...(levels[i] ?? [])]),
        ]);
        merged.set(parent.id, { parent, levels: union, leftOut });
      }
      const requests = [...merged.values()];
      const read = await store.childrenTrees(requests);
      const byParent = new Map(requests.map((request, i) => [request.parent.id, read[i]!]));
      const results = asked.map((request) => byParent.get(request.parent.id)!);
      for (const pages of read) {
        if (pages instanceof Error) continue;
        for (const [parentId, sized] of pages) {
          for (const [first, page] of sized) {
            const key = { parentId, first };
            const cacheKey = childrenKey(key);
            if (primed.has(cacheKey)) continue;
            primed.add(cacheKey);
            childrenByParent.prime(key, page);
            for (const edge of page.edges) keep(edge.node);
          }
        }
      }
      return results;
    },
    { cacheKeyFn: ({ parent, levels }) => JSON.stringify([parent.id, levels]) },
  );
  const children = async (
    parent: TreeNode,
    page: PageArgs,
    nested: () => number[][],
    leftOut?: LeftOut,
  ): Promise<Page> => {
    const key = { parentId: parent.id, ...page, leftOut };
    if (page.after == null && !page.backwards && !primed.has(childrenKey(key))) {
      const levels = nested();
      if (levels.length > 0) await childrenTree.load({ parent, levels: [[page.first], ...levels], leftOut });
    }
    return childrenByParent.load(key);
  };
  const descendants = new DataLoader<DescendantsRequest, Page, string>(
    async (requests) => {
      const pages = await store.descendantsOfMany(requests);
      for (const page of pages)
        if (!(page instanceof Error)) prime([...(page.related ?? []), ...page.edges.map((edge) => edge.node)]);
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
    childrenByParent,
    descendants,
    descendantCount,
    children,
    pendingJob,
    prime,
    clearAll() {
      known.clear();
      nodeById.clearAll();
      ancestors.clearAll();
      childrenByParent.clearAll();
      childrenTree.clearAll();
      primed.clear();
      descendants.clearAll();
      descendantCount.clearAll();
      pendingJob.clearAll();
    },
  };
}
