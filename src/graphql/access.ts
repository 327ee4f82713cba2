import { atLeast, higher, treeLevel, type Grants } from '../auth/grants.js';
import { notFound, TreeError } from '../errors.js';
import type { Loaders } from '../loaders/createLoaders.js';
import type { AccessLevel, StoreAccess, TreeNode } from '../storage/treeStore.js';

/**
 * The caller's access, applied to what an operation reaches: the level its credentials give on
 * whole trees (`grants`), and the grants on subtrees kept in the table (`store`), which its
 * subtree inherits. Everything below a node the caller may read is readable too (children,
 * descendants, counts, search), so only the entry points check: node lookups, `roots`, jobs,
 * mutations, and what lies above a node (`parent`, `ancestors`), which stops at the top of what
 * the caller may read. A node outside it is absent (null, or NOT_FOUND for a write), exactly as
 * if it did not exist; a node it may read but not write is FORBIDDEN to writes.
 *
 * The cost: nothing for a caller whose credentials let it read every tree, or the node's tree.
 * Otherwise the node's chain, known from the node item under `path`, `closure` and `nested-set`,
 * read through the request's ancestors loader under `adjacency` (one batched read per level
 * above), and the caller's grants, read once per request (one BatchGetItem).
 */
export interface Access {
  grants: Grants;
  /** The principals grants on subtrees name the caller by. */
  principals: readonly string[];
  /** The node, or null when the caller may not read it. */
  visible(node: TreeNode | null): Promise<TreeNode | null>;
  /** The caller's level on the node. */
  levelOf(node: TreeNode): Promise<AccessLevel | null>;
  /** The node's chain: its ancestors' ids, root first, then its own. */
  chainOf(node: TreeNode): Promise<string[]>;
  /** Whether the caller may read the node of a chain (ids, root first, the node last), for many chains. */
  readable(): Promise<(chain: readonly string[]) => boolean>;
  /** Refuses a write to node `id`: NOT_FOUND when unreadable (or missing), FORBIDDEN when read-only. */
  requireWrite(id: string, what: string): Promise<void>;
  /** Refuses what only a caller who may write every tree may do (create a root, make one). */
  requireWriteAll(what: string): void;
}

export function createAccess(
  grants: Grants,
  store: StoreAccess,
  loaders: Loaders,
  principals: readonly string[] = [],
): Access {
  const chainOf = async (node: TreeNode): Promise<string[]> => {
    if (node.parentId === null) return [node.id];
    if (node.path) return [...node.path, node.id];
    return [...(await loaders.ancestors.load(node)).map((n) => n.id), node.id];
  };
  /** The node's root, when known without a read. */
  const rootOf = (node: TreeNode): string | undefined => (node.parentId === null ? node.id : node.rootId);
  const levelOf = async (node: TreeNode): Promise<AccessLevel | null> => {
    const root = rootOf(node);
    if (grants.all === 'admin' || (root !== undefined && treeLevel(grants, root) === 'admin')) return 'admin';
    const chain = await chainOf(node);
    return higher(treeLevel(grants, chain[0]!), await store.grantedOn(chain));
  };
  return {
    grants,
    principals,
    levelOf,
    chainOf,
    async visible(node) {
      if (!node || grants.all !== null) return node;
      const root = rootOf(node);
      if (root !== undefined && grants.trees.has(root)) return node;
      const chain = await chainOf(node);
      return grants.trees.has(chain[0]!) || (await store.grantedOn(chain)) !== null ? node : null;
    },
    async readable() {
      if (grants.all !== null) return () => true;
      const levels = await store.grantedLevels();
      return (chain) => (chain.length > 0 && grants.trees.has(chain[0]!)) || levels(chain) !== null;
    },
    async requireWrite(id, what) {
      if (atLeast(grants.all, 'write')) return;
      const node = await loaders.nodeById.load(id);
      // Credentials that let it write the node's tree settle it, with no read of the grants.
      if (node && atLeast(treeLevel(grants, rootOf(node) ?? (await chainOf(node))[0]!), 'write')) return;
      const level = node ? await levelOf(node) : null;
      if (!node || level === null) throw notFound(what, id);
      if (!atLeast(level, 'write'))
        throw new TreeError('FORBIDDEN', `you may read ${what} "${id}" but not change it`, { id });
    },
    requireWriteAll(what) {
      if (!atLeast(grants.all, 'write'))
        throw new TreeError('FORBIDDEN', `${what} needs write access to every tree`, {});
    },
  };
}
