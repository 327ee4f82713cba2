import type { TreeNode, TreeStore } from '../storage/treeStore.js';

/** A node as `node` and `nodes` answer it when its changeCursor is asked for. */
export type CursoredNode = TreeNode & { changeCursor: string | null };

/** Rounds of reads before a node that keeps moving between trees is answered without a cursor. */
const ROUNDS = 3;

/**
 * Node `read` as of after a position in its tree's change log, with that position as a signed
 * treeChanges cursor: the log is read first (where a new subscriber would start, the changes
 * committed already above a change in flight included), then the node again, strongly
 * consistent; whatever the request reads below it comes later still. So a subscription after
 * this cursor misses no change committed after those reads; one committed between the log's
 * read and the node's may come again. null when the node is gone; a cursor of null when the node
 * moved to another tree between the reads, ROUNDS times over.
 */
export async function withChangeCursor(store: TreeStore, read: TreeNode): Promise<CursoredNode | null> {
  let node = read;
  let tree = node.rootId ?? (await pathOf(store, node))[0] ?? node.id;
  for (let round = 0; round < ROUNDS; round++) {
    const { seq } = await store.changes.start(tree);
    const at = Date.now();
    const fresh = (await store.getNodes([node.id])).get(node.id);
    if (!fresh) return null;
    const path = await pathOf(store, fresh);
    const now = path[0] ?? fresh.id;
    if (now === tree) {
      const watch = { nodeId: fresh.id, path };
      const changeCursor = store.changes.cursors.encode({ rootId: tree, seq, at, skip: [], watch });
      // Its place as read here, not as the request's caches may hold it from an earlier read.
      return { ...fresh, rootId: tree, depth: path.length, changeCursor };
    }
    node = fresh;
    tree = now;
  }
  return { ...node, changeCursor: null };
}

/** The node's ancestors' ids, root first, read strongly consistent (no request's cache). */
async function pathOf(store: TreeStore, node: TreeNode): Promise<string[]> {
  const [chain] = await store.ancestors([node], async (ids) => {
    const found = await store.getNodes(ids);
    return ids.map((id) => found.get(id) ?? null);
  });
  return (chain ?? []).map((n) => n.id);
}
