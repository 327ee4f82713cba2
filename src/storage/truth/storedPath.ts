import type { TransactionBuilder } from '../../dynamodb/transactionBuilder.js';
import { nodeKey, type StoredNode } from '../items.js';
import type { StoreContext } from './context.js';
import type { MovedNode, PlacedNode } from './projection.js';
import { live, readStored } from './reads.js';

/**
 * Shared by the strategies whose node items keep their path (path, closure). The path is a
 * projection, rewritten in the same transaction as every move, so a node's stored path is its
 * chain at every commit: reading the chain is one BatchGet, and guarding the new parent's path
 * guards its whole chain.
 */
export function storedPathOf(stored: StoredNode): string[] {
  const path = stored.node.path;
  if (!path) {
    throw new Error(
      `node "${stored.node.id}" has no stored path; rebuild the projections with: npm run tree -- reindex --to <strategy>`,
    );
  }
  return path;
}

export async function readChainByPath(ctx: StoreContext, node: StoredNode): Promise<StoredNode[]> {
  const path = storedPathOf(node);
  if (path.length === 0) return [node];
  const stored = await readStored(ctx, path);
  return [...path.map((id) => live(stored, id, 'ancestor')), node];
}

export function guardByParentPath(tx: TransactionBuilder, chain: StoredNode[]): void {
  const parent = chain[chain.length - 1];
  if (!parent) return;
  tx.check(nodeKey(parent.node.id), { exists: true }, { missing: 'deleting' }, { equals: ['path', storedPathOf(parent)] });
}

/**
 * Deleted nodes must still have the paths their projection items were computed from: a move
 * above them rewrites paths without bumping rev, so rev alone would not notice.
 */
export function guardStoredPaths(tx: TransactionBuilder, nodes: PlacedNode[]): void {
  for (const { stored, path } of nodes) tx.check(nodeKey(stored.node.id), { equals: ['path', path] });
}

/**
 * Each moved node's item takes its new path. Its rev and its old path must be the ones the move
 * read: a concurrent child change bumps the rev, a concurrent move above it changes the path
 * (path rewrites do not bump rev, so that node items and edge copies keep equal revs).
 */
export function rewriteStoredPaths(tx: TransactionBuilder, moved: MovedNode[]): void {
  for (const { stored, path, newPath } of moved) {
    tx.update(
      nodeKey(stored.node.id),
      { set: { path: newPath } },
      { exists: true },
      { equals: ['rev', stored.rev] },
      { equals: ['path', path] },
    );
  }
}
