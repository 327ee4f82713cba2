import type { TreeStrategy } from '../strategy.js';
import { adjacency } from './adjacency/adjacency.js';
import { closure } from './closure/closure.js';
import { nestedSet } from './nestedSet/nestedSet.js';
import { path } from './path/path.js';

/**
 * Every strategy, by the name TREE_STRATEGY gives it. Adding a strategy is one folder beside
 * these, holding a descriptor that implements TreeStrategy (storage/strategy.ts), and one entry
 * here: the configuration, the server, `tree verify`, `tree reindex` and the contract suite all
 * take their list from this one.
 */
export const STRATEGIES = [adjacency, path, closure, nestedSet] as const satisfies readonly TreeStrategy[];

export type StrategyName = (typeof STRATEGIES)[number]['name'];

export const STRATEGY_NAMES: readonly StrategyName[] = STRATEGIES.map((s) => s.name);

/** TREE_STRATEGY when unset: O(1) moves, and nothing to rebuild when switching away. */
export const DEFAULT_STRATEGY: StrategyName = 'adjacency';

export function strategyNamed(name: StrategyName): TreeStrategy {
  return STRATEGIES.find((s) => s.name === name)!;
}
