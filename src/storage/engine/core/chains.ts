import type { Item } from '../../../dynamodb/keys.js';
import type { Place } from '../../strategy.js';

/** Pure: what the truth implies, every node's chain from its parent pointers. */
export interface NodeFacts {
  id: string;
  parentId: string | null;
  /** Ancestor ids root first, from the parent pointers; null when the chain is broken. */
  chain: string[] | null;
  problem?: string;
}

/** Walks every node's parent pointers, with cycle and orphan detection. */
export function chainsOf(nodes: Map<string, Item>, maxTreeDepth: number): Map<string, NodeFacts> {
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
      if (seen.length > maxTreeDepth + 2) {
        problem = `deeper than ${maxTreeDepth}`;
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

/** The place of the node `item` whose ancestors are `chain`, positions from the nodes' items. */
export function placeOfChain(nodes: ReadonlyMap<string, Item>, chain: readonly string[], item: Item): Place {
  return { path: [...chain], lineage: [...chain.map((id) => String(nodes.get(id)?.position)), String(item.position)] };
}
