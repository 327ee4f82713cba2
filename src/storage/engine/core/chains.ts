import { decoderOf } from '../../../dynamodb/decodeItem.js';
import type { Item } from '../../../dynamodb/keys.js';
import type { Place } from '../../strategy.js';
import type { JsonObject } from '../../treeStore.js';
import type { KeyOf } from './projectionPlans.js';
import { NODE_ITEM } from './items.js';

/** What a walk of parent pointers reads of a node item, and what a place reads: the node's schema's. */
const decodeParent = decoderOf(NODE_ITEM.pick({ parentId: true }));
const decodePosition = decoderOf(NODE_ITEM.pick({ position: true }));
const decodeKeyed = decoderOf(NODE_ITEM.pick({ type: true, data: true }));
const parentOf = (item: Item): string | null => decodeParent(item).parentId ?? null;

/** Pure: what the truth implies, every node's chain from its parent pointers. */
export interface NodeFacts {
  id: string;
  parentId: string | null;
  /** Ancestor ids root first, from the parent pointers; null when the chain is broken. */
  chain: string[] | null;
  problem?: string;
}

/** Walks every node's parent pointers (node items by id), with cycle and orphan detection. */
export function chainsOf(nodes: ReadonlyMap<string, Item>, maxTreeDepth: number): Map<string, NodeFacts> {
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
      current = parentOf(item);
    }
    const result: NodeFacts = {
      id,
      parentId: parentOf(nodes.get(id)!),
      chain: problem ? null : seen.slice(1).reverse(),
      ...(problem ? { problem } : {}),
    };
    facts.set(id, result);
    return result;
  };
  for (const id of nodes.keys()) resolve(id);
  return facts;
}

/**
 * The place of the node `item` whose ancestors are `chain` (each in `nodes`, where chainsOf found
 * them), the positions and path keys (`keyOf`) from their items.
 */
export function placeOfChain(
  nodes: ReadonlyMap<string, Item>,
  chain: readonly string[],
  item: Item,
  keyOf: KeyOf,
): Place {
  const positionOf = (node: Item) => decodePosition(node).position;
  const keyOfItem = (node: Item) => {
    const { type, data } = decodeKeyed(node);
    return keyOf({ type, data: (data as JsonObject | undefined) ?? null });
  };
  const below = chain.slice(1).map((id) => nodes.get(id)!);
  return {
    path: [...chain],
    lineage: [...chain.map((id) => positionOf(nodes.get(id)!)), positionOf(item)],
    keys: chain.length === 0 ? [] : [...below.map(keyOfItem), keyOfItem(item)],
  };
}
