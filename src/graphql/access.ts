import type { Grants } from '../auth/grants.js';
import { canRead, canWrite } from '../auth/grants.js';
import { notFound, TreeError } from '../errors.js';
import type { Loaders } from '../loaders/createLoaders.js';
import type { TreeNode } from '../storage/treeStore.js';

/**
 * The caller's grants, applied to what an operation reaches. Everything below a node (children,
 * descendants, ancestors, parent, counts) is in the node's tree, so only the entry points check:
 * node lookups, `roots`, jobs and mutations. A node outside what the caller may read is absent
 * (null, or NOT_FOUND for a write), exactly as if it did not exist; a node it may read but not
 * write is FORBIDDEN to writes.
 *
 * The cost: nothing for a caller that may read (or write) every tree. Otherwise the check needs
 * the node's root: known from the node item under `path` and `closure` (no extra call), read
 * through the request's ancestors loader under `adjacency` (one batched read per level above).
 */
export interface Access {
  grants: Grants;
  /** The node, or null when the caller may not read its tree. */
  visible(node: TreeNode | null): Promise<TreeNode | null>;
  /** Refuses a write to the tree of node `id`: NOT_FOUND when unreadable (or missing), FORBIDDEN when read-only. */
  requireWrite(id: string, what: string): Promise<void>;
  /** Refuses what only a caller who may write every tree may do (create a root, make one). */
  requireWriteAll(what: string): void;
}

export function createAccess(grants: Grants, loaders: Loaders): Access {
  const rootOf = async (node: TreeNode): Promise<string> => {
    if (node.parentId === null) return node.id;
    if (node.rootId !== undefined) return node.rootId;
    return (await loaders.ancestors.load(node))[0]?.id ?? node.id;
  };
  return {
    grants,
    async visible(node) {
      if (!node || grants.all !== null) return node;
      return canRead(grants, await rootOf(node)) ? node : null;
    },
    async requireWrite(id, what) {
      if (grants.all === 'write') return;
      const node = await loaders.nodeById.load(id);
      const root = node ? await rootOf(node) : null;
      if (!node || root === null || !canRead(grants, root)) throw notFound(what, id);
      if (!canWrite(grants, root))
        throw new TreeError('FORBIDDEN', `you may read the tree of ${what} "${id}" but not change it`, { id });
    },
    requireWriteAll(what) {
      if (grants.all !== 'write') throw new TreeError('FORBIDDEN', `${what} needs write access to every tree`, {});
    },
  };
}
