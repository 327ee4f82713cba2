/**
 * The engine's helpers a strategy may use, and the only engine module a strategy imports: the
 * truth's item layout it reads (node and edge items) and the guards on chain nodes it builds its
 * guardChain from. Everything else a strategy needs from the engine comes through the
 * StrategyContext it is handed (reads of nodes and children, copies of nodes in its items).
 */
export { edgeSk, live, nodeFromItem, nodeKey } from './core/items.js';
export { guardChainNode, guardChainRoot } from './core/writePlans.js';
