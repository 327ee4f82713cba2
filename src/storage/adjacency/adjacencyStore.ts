import { TRUTH_ONLY } from '../truth/projection.js';
import type { StoreContext } from '../truth/context.js';
import { TruthStore } from '../truth/truthStore.js';
import type { DepthWindow, NodeReader, Page, PageArgs, TreeNode } from '../treeStore.js';
import { ancestorsByWalk } from './ancestors.js';
import { descendantsByLevels } from './descendants.js';

/**
 * Adjacency list: the truth and nothing else. A move writes O(1) items whatever the size of the
 * subtree; ancestors cost one BatchGet wave per level and descendants one wave of child Queries
 * per level. depth and rootId are derived from the parent pointers, never stored.
 */
export class AdjacencyStore extends TruthStore {
  readonly strategy = 'adjacency' as const;

  constructor(ctx: Omit<StoreContext, 'projection'>) {
    super({ ...ctx, projection: TRUTH_ONLY });
  }

  ancestors(nodes: readonly TreeNode[], read: NodeReader): Promise<TreeNode[][]> {
    return ancestorsByWalk(nodes, read, this.ctx.maxDepth);
  }

  descendants(node: TreeNode, window: DepthWindow, page: PageArgs): Promise<Page> {
    return descendantsByLevels(this.ctx, node, window, page);
  }
}
