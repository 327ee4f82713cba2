import DataLoader from 'dataloader';
import type {
  ChildrenPages,
  ChildrenTreeRequest,
  LeftOut,
  Page,
  PageArgs,
  TreeNode,
  TreeStore,
} from '../storage/treeStore.js';
import type { KnownNodes } from './knownNodes.js';

export interface ChildrenKey extends PageArgs {
  parentId: string | null;
  /** The fields the operation never reads (not part of the key: one request, one operation). */
  leftOut?: LeftOut;
}

/** A request's pages of children: asked one by one, and read in bulk when the query nests them. */
export interface ChildrenLoaders {
  /** Identical children requests merged; the pages read in bulk primed here. */
  byParent: DataLoader<ChildrenKey, Page, string>;
  /** A page of a parent's children, its nested levels read in bulk first when the query asks for them. */
  page: (parent: TreeNode, page: PageArgs, nested: () => number[][], leftOut?: LeftOut) => Promise<Page>;
  clearAll(): void;
}

/** The cache key of a page of children. */
const childrenKey = (key: ChildrenKey) =>
  JSON.stringify([key.parentId, key.first, key.after ?? null, key.backwards === true]);

/** The children loaders of one request, every node they read kept in `known`. */
export function childrenLoaders(store: TreeStore, known: KnownNodes): ChildrenLoaders {
  const byParent = childrenByParentLoader(store, known);
  // Children pages known before they are asked for (read in bulk by childrenTree).
  const primed = new Set<string>();
  const primePages = (pages: ChildrenPages) => {
    for (const [parentId, sized] of pages) {
      for (const [first, page] of sized) {
        const key = { parentId, first };
        const cacheKey = childrenKey(key);
        if (primed.has(cacheKey)) continue;
        primed.add(cacheKey);
        byParent.prime(key, page);
        for (const edge of page.edges) known.keep(edge.node);
      }
    }
  };
  const tree = childrenTreeLoader(store, primePages);
  return {
    byParent,
    page: async (parent, page, nested, leftOut) => {
      const key = { parentId: parent.id, ...page, leftOut };
      if (page.after == null && !page.backwards && !primed.has(childrenKey(key))) {
        const levels = nested();
        if (levels.length > 0) await tree.load({ parent, levels: [[page.first], ...levels], leftOut });
      }
      return byParent.load(key);
    },
    clearAll() {
      byParent.clearAll();
      tree.clearAll();
      primed.clear();
    },
  };
}

/** One page of children per key, read one by one: one failing key (a bad cursor) fails no other. */
function childrenByParentLoader(store: TreeStore, known: KnownNodes): DataLoader<ChildrenKey, Page, string> {
  return new DataLoader<ChildrenKey, Page, string>(
    async (keys) =>
      Promise.all(
        keys.map(async (key) => {
          try {
            const page = await store.children(key.parentId, key, key.leftOut);
            known.prime(page.edges.map((edge) => edge.node));
            return page;
          } catch (error) {
            return error as Error;
          }
        }),
      ),
    { cacheKeyFn: childrenKey },
  );
}

/** The nested levels of children under the parents of one tick, read together; their pages given to `primePages`. */
function childrenTreeLoader(
  store: TreeStore,
  primePages: (pages: ChildrenPages) => void,
): DataLoader<ChildrenTreeRequest, ChildrenPages, string> {
  return new DataLoader<ChildrenTreeRequest, ChildrenPages, string>(
    async (asked) => {
      const requests = mergedByParent(asked);
      const read = await store.childrenTrees(requests);
      const byParent = new Map(requests.map((request, i) => [request.parent.id, read[i]!]));
      const results = asked.map((request) => byParent.get(request.parent.id)!);
      for (const pages of read) if (!(pages instanceof Error)) primePages(pages);
      return results;
    },
    { cacheKeyFn: ({ parent, levels }) => JSON.stringify([parent.id, levels]) },
  );
}

/**
 * Pure: one request per parent. Aliases of `children` on one parent ask for different levels: one
 * read serves them all. All come from one operation: they leave out the same fields.
 */
function mergedByParent(asked: readonly ChildrenTreeRequest[]): ChildrenTreeRequest[] {
  const merged = new Map<string, ChildrenTreeRequest>();
  for (const { parent, levels, leftOut } of asked) {
    const known = merged.get(parent.id)?.levels ?? [];
    const depth = Math.max(known.length, levels.length);
    const union = Array.from({ length: depth }, (_, i) => [...new Set([...(known[i] ?? []), ...(levels[i] ?? [])])]);
    merged.set(parent.id, { parent, levels: union, leftOut });
  }
  return [...merged.values()];
}
