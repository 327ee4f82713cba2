import type { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { nodeKey } from '../../../dynamodb/keys.js';
import { existing, type StoredNode, type StrategyMembers } from '../../strategy.js';
import type { TreeNode } from '../../treeStore.js';

/**
 * The place half of a strategy that keeps each node's path (ancestor ids, root first) on its
 * node item: path and closure spread it into their descriptors. The path is rewritten in the
 * same transaction as every move, so a node's stored path is its chain at every commit:
 *
 * - reading a chain is one BatchGet of the ids on the parent's path;
 * - guarding the new parent's path guards its whole chain: any move above it rewrites it;
 * - a moved subtree is guarded node by node (rev), so a child added to it meanwhile makes
 *   the move re-plan instead of leaving that child with a stale path;
 * - ancestors of any number of nodes are one BatchGet wave through the request's loader.
 */
export const storedPath: Pick<
  StrategyMembers,
  'nodeFields' | 'readChain' | 'guardChain' | 'guardSubtree' | 'ancestors'
> & { keeps: 'path' } = {
  keeps: 'path',
  nodeFields: ({ path }) => ({ path: [...path] }),

  async readChain(ctx, node) {
    const path = storedPathOf(node.node);
    if (path.length === 0) return [node];
    const stored = await ctx.readStored(path);
    return [...path.map((id) => existing(stored, id, 'ancestor')), node];
  },

  guardChain(tx: TransactionBuilder, chain: readonly StoredNode[]) {
    const parent = chain[chain.length - 1];
    if (!parent) return;
    // A move job started above it after the chain was read leaves the parent's path stale until
    // the job rewrites it: the claims of the tree (added by the engine) tell.
    tx.check(
      nodeKey(parent.node.id),
      { exists: true },
      { missing: 'deleting' },
      { equals: ['path', storedPathOf(parent.node)] },
    );
  },

  guardSubtree(tx, subtree) {
    for (const { stored } of subtree) tx.check(nodeKey(stored.node.id), { equals: ['rev', stored.rev] });
  },

  /**
   * One read of every id on every path, through the request's loader. Nodes read from edge
   * copies carry no path; their node items are read first (one more wave; not through the
   * loader, whose cache may hold the edge copy).
   */
  async ancestors(ctx, nodes, read) {
    const withPath = new Map(nodes.filter((n) => n.path).map((n) => [n.id, n]));
    const missing = [...new Set(nodes.filter((n) => !n.path).map((n) => n.id))];
    if (missing.length > 0) {
      for (const node of (await ctx.getNodes(missing)).values()) if (node.path) withPath.set(node.id, node);
    }
    const pathOf = (node: TreeNode) => storedPathOf(withPath.get(node.id) ?? node);
    const ids = [...new Set(nodes.flatMap(pathOf))];
    const found = new Map((await read(ids)).filter((n): n is TreeNode => n !== null).map((n) => [n.id, n]));
    return nodes.map((node) => pathOf(node).flatMap((id) => found.get(id) ?? []));
  },
};

function storedPathOf(node: TreeNode): string[] {
  if (!node.path) {
    throw new Error(
      `node "${node.id}" has no stored path; rebuild the projections with: npm run tree -- reindex --to <strategy>`,
    );
  }
  return node.path;
}
