import { live } from '../../engine/items.js';
import { guardChainNode } from '../../engine/writePlans.js';
import type { StoredNode, TreeStrategy } from '../../strategy.js';
import { ancestorsByWalk } from './ancestorsByWalk.js';
import { descendantsByLevels } from './descendantsByLevels.js';

/**
 * Adjacency list: the truth and nothing else. A move writes O(1) items whatever the size of the
 * subtree; ancestors cost one BatchGet wave per level and descendants one wave of child Queries
 * per level. depth and rootId are derived from the parent pointers, never stored.
 */
export const adjacency: TreeStrategy<'adjacency'> = {
  name: 'adjacency',
  nodeFields: () => ({}),
  itemsFor: () => [],
  owns: () => false,
  itemName: 'projection',

  /** Walks parent pointers, one GetItem per level, bounded by the depth limit. */
  async readChain(ctx, node) {
    const chain: StoredNode[] = [node];
    for (let parentId = node.node.parentId; parentId !== null; parentId = chain[0]!.node.parentId) {
      if (chain.length > ctx.maxTreeDepth + 8) {
        throw new Error(`parent chain of ${node.node.id} is longer than the depth limit allows`);
      }
      chain.unshift(live(await ctx.readStored([parentId]), parentId, 'ancestor'));
    }
    return chain;
  },

  /** Every node of the chain keeps its parent and stays alive: one condition per level. */
  guardChain(tx, chain) {
    for (const chainNode of chain) guardChainNode(tx, chainNode);
  },

  /**
   * Nothing: guarding the subtree would take a condition per moved node and give up the O(1)
   * move. The move reads the subtree's height for the depth limit but does not guard it, so a
   * child created under a deep node of the subtree while a move takes it deeper can end up
   * past MAX_TREE_DEPTH (`tree verify` reports it). Cycles and orphans stay impossible: they
   * depend only on the new parent's chain, which guardChain covers.
   */
  guardSubtree() {},

  ancestors: (ctx, nodes, read) => ancestorsByWalk(nodes, read, ctx.maxTreeDepth),
  descendants: descendantsByLevels,
};
