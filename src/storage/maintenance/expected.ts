import type { StrategyName } from '../../config.js';
import type { Item, Key } from '../../dynamodb/batchGet.js';
import { closureRowKeys, CLOSURE_PREFIX } from '../closure/closureKeys.js';
import { EDGE_PREFIX, ROOTS_PK } from '../items.js';
import { levelKey } from '../path/levelKeys.js';

/**
 * Pure: what a table must hold, computed from the truth (node items' parent pointers), and how
 * the items of a table sort into truth and projections. Used by `tree verify` and `tree reindex`.
 */
export type ItemKind = 'node' | 'edge' | 'level' | 'closure' | 'job' | 'other';

export function kindOf(item: Key): ItemKind {
  if (item.sk === 'NODE' && item.pk.startsWith('N#')) return 'node';
  if (item.sk.startsWith(EDGE_PREFIX) && (item.pk === ROOTS_PK || item.pk.startsWith('N#'))) return 'edge';
  if (item.pk.startsWith('L#')) return 'level';
  if (item.sk.startsWith(CLOSURE_PREFIX) && item.pk.startsWith('N#')) return 'closure';
  if (item.pk === 'JOBS' || item.pk === 'REINDEX') return 'job';
  return 'other';
}

export interface NodeFacts {
  id: string;
  parentId: string | null;
  /** Ancestor ids root first, from the parent pointers; null when the chain is broken. */
  chain: string[] | null;
  problem?: string;
}

/** Walks every node's parent pointers, with cycle and orphan detection. */
export function chainsOf(nodes: Map<string, Item>, maxDepth: number): Map<string, NodeFacts> {
  const facts = new Map<string, NodeFacts>();
  const resolve = (id: string): NodeFacts => {
    const known = facts.get(id);
    if (known) return known;
    const seen: string[] = [];
    let current: string | null = id;
    let problem: string | undefined;
    while (current !== null) {
      if (seen.includes(current)) {
        problem = `cycle through ${current}`;
        break;
      }
      seen.push(current);
      if (seen.length > maxDepth + 2) {
        problem = `deeper than ${maxDepth}`;
        break;
      }
      const item = nodes.get(current);
      if (!item) {
        problem = `orphan: ancestor ${current} does not exist`;
        break;
      }
      current = typeof item.parentId === 'string' ? item.parentId : null;
    }
    const item = nodes.get(id)!;
    const result: NodeFacts = {
      id,
      parentId: typeof item.parentId === 'string' ? item.parentId : null,
      chain: problem ? null : seen.slice(1).reverse(),
      ...(problem ? { problem } : {}),
    };
    facts.set(id, result);
    return result;
  };
  for (const id of nodes.keys()) resolve(id);
  return facts;
}

/** The projection items the strategy keeps for a node with ancestors `chain`. */
export function expectedProjection(strategy: StrategyName, id: string, chain: string[]): Array<Item & Key> {
  if (strategy === 'path') return [{ ...levelKey(chain, id), id, path: chain }];
  if (strategy === 'closure') return closureRowKeys(chain, id).map((key) => ({ ...key, id }));
  return [];
}

export const storesPath = (strategy: StrategyName): boolean => strategy !== 'adjacency';

export const projectionKinds = (strategy: StrategyName): ItemKind[] =>
  strategy === 'path' ? ['level'] : strategy === 'closure' ? ['closure'] : [];
