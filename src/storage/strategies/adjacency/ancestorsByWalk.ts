import type { NodeReader, TreeNode } from '../../treeStore.js';
import { walkLimit } from '../../strategy.js';

/**
 * Ancestors of many nodes at once by walking parent pointers level-synchronously: each step
 * reads the parents of every chain's current top in one call to `read` (one BatchGet wave
 * through the request's loader), so N nodes cost as many waves as the deepest of them, not N
 * times that. A missing parent ends its chain (only a crashed delete can leave one, briefly).
 */
export async function ancestorsByWalk(
  nodes: readonly TreeNode[],
  read: NodeReader,
  maxTreeDepth: number,
): Promise<TreeNode[][]> {
  const chains: TreeNode[][] = nodes.map(() => []);
  const tops: Array<TreeNode | null> = [...nodes];
  for (let step = 0; ; step++) {
    const pending = tops.flatMap((top, i) => (top?.parentId ? [i] : []));
    if (pending.length === 0) return chains;
    if (step > walkLimit({ maxTreeDepth })) throw new Error('parent chain longer than the depth limit allows');
    const parentIds = [...new Set(pending.map((i) => tops[i]!.parentId!))];
    const parents = await read(parentIds);
    const byId = new Map(parents.filter((p): p is TreeNode => p !== null).map((p) => [p.id, p]));
    for (const i of pending) {
      const parent = byId.get(tops[i]!.parentId!) ?? null;
      if (parent) chains[i]!.unshift(parent);
      tops[i] = parent;
    }
  }
}
