import { keptFields } from '../../src/storage/engine/core/projectionPlans.js';
import { strategyNamed, type StrategyName } from '../../src/storage/strategies/strategies.js';

/**
 * What a strategy keeps and reads, asked of the strategy itself: tests branch on these traits,
 * never on a strategy's name, so that a new strategy gets the branch its traits call for.
 */
export interface Traits {
  /** The node items keep the node's place (its path): a big move or reorder runs as a job. */
  keepsPath: boolean;
  /** They keep the sibling positions of the chain too: a reorder rewrites the moved subtree. */
  keepsLineage: boolean;
  /** Children several levels deep come in one bulk read of the projection (lookahead). */
  bulkChildren: boolean;
  /** Descendants in document order come from the projection's own reads (a range per page). */
  preorderFromProjection: boolean;
  /** A small depth window comes from one bulk read of the projection (a range, filtered by depth). */
  windowsInBulk: boolean;
  /** Within one depth, descendants come breadth first: by parent, then in sibling order. */
  breadthFirst: boolean;
}

export function traitsOf(name: StrategyName): Traits {
  const strategy = strategyNamed(name);
  const kept = keptFields(strategy);
  return {
    keepsPath: kept.path,
    keepsLineage: kept.lineage,
    bulkChildren: strategy.subtreeItems !== undefined,
    preorderFromProjection: strategy.preorder !== undefined,
    windowsInBulk: strategy.descendantsInBulk !== undefined,
    breadthFirst: strategy.keeps === 'nothing' || strategy.descendantsFrom === 'truth',
  };
}
