import { existing, walkLimit, type StoredNode, type TreeStrategy } from '../../strategy.js';
import { ancestorsByWalk } from './ancestorsByWalk.js';
import { descendantsByLevels } from '../parts/descendantsByLevels.js';

/**
 * Adjacency list: the truth and nothing else. A move writes O(1) items whatever the size of the
 * subtree; ancestors cost one BatchGet wave per level and descendants one wave of child Queries
 * per level. depth and rootId are derived from the parent pointers, never stored.
 */
export const adjacency: TreeStrategy<'adjacency'> = {
  name: 'adjacency',
  maxDepthLimit: 90,
  keeps: 'nothing',
  nodeFields: () => ({}),
  itemsFor: () => [],
  keyPrefixes: { pk: [], sk: [] },
  owns: () => false,
  carriesNode: () => false,
  itemName: 'projection',

  /** Walks parent pointers, one GetItem per level, bounded by the depth limit. */
  async readChain(ctx, node) {
    const chain: StoredNode[] = [node];
    for (let parentId = node.node.parentId; parentId !== null; parentId = chain[0]!.node.parentId) {
      if (chain.length > walkLimit(ctx)) {
        throw new Error(`parent chain of ${node.node.id} is longer than the depth limit allows`);
      }
      chain.unshift(existing(await ctx.readStored([parentId]), parentId, 'ancestor'));
    }
    return chain;
  },

  /**
   * Every node of the chain keeps its parent, stays alive, and is not held by a move that takes
   * its subtree deeper: one condition per level.
   */
  guardChain(tx, chain, now, guards) {
    for (const chainNode of chain) guards.node(tx, chainNode, now);
  },

  /**
   * Nothing: guarding the subtree would take a condition per moved node and give up the O(1)
   * move. Instead, a move that takes the subtree deeper first holds its root (planHold): from
   * then on no write can add a node below it (guardChain refuses a held chain node), the move
   * reads the subtree's height, and commits releasing the hold. Cycles and orphans depend only
   * on the new parent's chain, which guardChain covers.
   */
  guardSubtree() {},

  ancestors: (ctx, nodes, read) => ancestorsByWalk(nodes, read, ctx.maxTreeDepth),
  descendants: descendantsByLevels,
};
