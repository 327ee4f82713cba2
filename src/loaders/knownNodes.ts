import type { TreeNode } from '../storage/treeStore.js';

/**
 * Nodes read by other means (pages of children, descendants, ancestors), by id: a lookup finds
 * them there instead of reading them. Kept in a plain map rather than primed into nodeById one
 * promise each (a page of a thousand nodes is often never looked up by id).
 */
export interface KnownNodes {
  get(id: string): TreeNode | undefined;
  has(id: string): boolean;
  /**
   * Keeps a node. A node already known stays: it may be the node item, which carries more than a
   * copy of the same node (the stored path, under path and closure). A node read without its
   * childCount (LeftOut) serves its own list only, and is not kept.
   */
  keep: (node: TreeNode) => void;
  /** Keeps every node. */
  prime: (nodes: Iterable<TreeNode>) => void;
  /** Forgets every node (mutations clear everything). */
  clear(): void;
}

/** An empty set of known nodes, for one request. */
export function knownNodes(): KnownNodes {
  const known = new Map<string, TreeNode>();
  const keep = (node: TreeNode) => {
    if (!known.has(node.id) && Object.hasOwn(node, 'childCount')) known.set(node.id, node);
  };
  return {
    get: (id) => known.get(id),
    has: (id) => known.has(id),
    keep,
    prime: (nodes) => {
      for (const node of nodes) keep(node);
    },
    clear: () => known.clear(),
  };
}
