import type { TransactionBuilder } from '../../dynamodb/transactionBuilder.js';
import type { StoredNode } from '../items.js';
import type { TreeNode } from '../treeStore.js';
import type { StoreContext } from './context.js';
import { readChain } from './reads.js';
import { guardChainNode } from './writePlans.js';

/**
 * What a strategy keeps beyond the truth, and how it rides in the truth's transactions.
 * The truth's mutations call these hooks; a strategy whose projection does not fit the
 * transaction makes the write fail whole (SUBTREE_TOO_LARGE), never half-written.
 */
export interface Projection {
  /** True when node items keep `path` (ancestor ids, root first). */
  readonly storesPath: boolean;
  /** The chain root..node (inclusive). */
  readChain(ctx: StoreContext, node: StoredNode): Promise<StoredNode[]>;
  /**
   * Guards the place a node is written under: nothing in `chain` (root first, new parent last)
   * may have moved or started being deleted when the transaction commits.
   */
  guardChain(tx: TransactionBuilder, chain: StoredNode[]): void;
  /** Projection items of a new node (its path is set when storesPath). */
  onCreate(tx: TransactionBuilder, node: TreeNode): void;
  /** Rewrites the projection of a moved subtree; every node carries its old and new path. */
  onMove(tx: TransactionBuilder, moved: MovedNode[]): void;
  /** Removes the projection items of deleted nodes (each with its path). */
  onDelete(tx: TransactionBuilder, nodes: PlacedNode[]): void;
}

export interface PlacedNode {
  stored: StoredNode;
  path: string[];
}

export interface MovedNode extends PlacedNode {
  newPath: string[];
}

/** The adjacency strategy's projection: nothing beyond the truth. */
export const TRUTH_ONLY: Projection = {
  storesPath: false,
  readChain,
  guardChain(tx, chain) {
    for (const chainNode of chain) guardChainNode(tx, chainNode);
  },
  onCreate() {},
  onMove() {},
  onDelete() {},
};

/**
 * Paths of every node of a subtree read breadth first from its edges, given the root's path:
 * a child's path is its parent's path plus the parent.
 */
export function subtreePaths(root: StoredNode, rootPath: string[], levels: StoredNode[][]): PlacedNode[] {
  const paths = new Map<string, string[]>([[root.node.id, rootPath]]);
  const placed: PlacedNode[] = [{ stored: root, path: rootPath }];
  for (const level of levels) {
    for (const stored of level) {
      const parentPath = paths.get(stored.node.parentId ?? '');
      if (!parentPath) throw new Error(`subtree read out of order at ${stored.node.id}`);
      const path = [...parentPath, stored.node.parentId!];
      paths.set(stored.node.id, path);
      placed.push({ stored, path });
    }
  }
  return placed;
}
