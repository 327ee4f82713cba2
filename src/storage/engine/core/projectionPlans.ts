import { keyString, type Item, type Key } from '../../../dynamodb/keys.js';
import type { Condition, TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import type { CopyLack, MovedNode, Place, PlacedNode, PlaceFields, StoredNode, TreeStrategy } from '../../strategy.js';
import type { JsonObject, TreeNode } from '../../treeStore.js';
import type { TypedData } from '../../../nodeTypes/typedData.js';
import { nodeAttributes, nodeKey } from './items.js';

/**
 * Pure plans of the projection's writes, all derived from the strategy's `nodeFields` and
 * `itemsFor`, so that creates, moves, deletes and the delete job write exactly the items that
 * `tree verify` expects. They ride in the truth's transactions (writePlans.ts).
 */

/** No place: what a strategy that keeps nothing is handed for every node. */
export const NOWHERE: Place = { path: [], lineage: [], keys: [] };

/** A place with every field set: what lists the place fields a strategy may keep (nodeFields). */
export const KEYED: Place = { path: ['*'], lineage: ['*', '*'], keys: ['*'] };

/**
 * A stored node's place as far as the strategy keeps it: its kept path (and lineage, and path
 * keys), or empty lists when the strategy keeps none (its items then do not depend on it;
 * TreeStrategy.itemsFor). Path keys not stored are all '' (a node item keeps them only when
 * one is set: PlaceFields).
 */
export function placeOf(strategy: TreeStrategy, stored: StoredNode): Place {
  const { path, lineage, keys } = stored.node;
  const kept = keptFields(strategy);
  if ((kept.path && !path) || (kept.lineage && !lineage)) {
    throw new Error(
      `node "${stored.node.id}" has no stored place; rebuild the projections with: ` +
        `npm run tree -- reindex --to ${strategy.name}`,
    );
  }
  const keptPath = kept.path ? path! : [];
  return {
    path: keptPath,
    lineage: kept.lineage ? lineage! : [],
    keys: kept.keys && keys ? keys : keptPath.map(() => ''),
  };
}

/** Which place fields the strategy keeps on node items, as it declares them (TreeStrategy.keeps, keepsKeys). */
export function keptFields(strategy: TreeStrategy): { path: boolean; lineage: boolean; keys: boolean } {
  return {
    path: strategy.keeps !== 'nothing',
    lineage: strategy.keeps === 'path+lineage',
    keys: strategy.keepsKeys === true,
  };
}

/**
 * A node's own path key value as a place holds it (Place.keys): '' when the strategy keeps none,
 * or the node has none.
 */
export type KeyOf = (node: { type?: string | null; data: JsonObject | null }) => string;

/** KeyOf under `strategy`, with the node types' path keys (`typedData`, NODE_TYPES). */
export function keyOfIn({ strategy, typedData }: { strategy: TreeStrategy; typedData?: TypedData }): KeyOf {
  if (!strategy.keepsKeys || !typedData) return () => '';
  return (node) => typedData.pathKeyOf({ type: node.type, data: node.data }) ?? '';
}

/** The place of a child of the node at `parent`, whose own sibling position is `position` and path key `key`. */
export const childPlace = (parent: Place, parentId: string, position: string, key: string): Place => ({
  path: [...parent.path, parentId],
  lineage: [...parent.lineage, position],
  keys: [...parent.keys, key],
});

/** The place of a root at sibling position `position`. */
export const placeOfRoot = (position: string): Place => ({ path: [], lineage: [position], keys: [] });

/** `place` with the node's own path key `key` (a rename of it): a root's place has none. */
export const withOwnKey = (place: Place, key: string): Place =>
  place.keys.length === 0 ? place : { ...place, keys: [...place.keys.slice(0, -1), key] };

/**
 * The place of a node of a moved subtree once the move is done: the moved node goes from
 * `from` to `to`; the part of the node's place below it stays.
 */
export const rebased = (place: Place, from: Place, to: Place): Place => ({
  path: [...to.path, ...place.path.slice(from.path.length)],
  lineage: [...to.lineage, ...place.lineage.slice(from.lineage.length)],
  keys: [...to.keys, ...place.keys.slice(from.keys.length)],
});

/**
 * Places of every node of a subtree read breadth first from its edges, given the root's
 * place: a child's place is its parent's, plus the parent and its own position.
 */
export function subtreePlaces(root: StoredNode, rootPlace: Place, levels: StoredNode[][], keyOf: KeyOf): PlacedNode[] {
  const places = new Map<string, Place>([[root.node.id, rootPlace]]);
  const placed: PlacedNode[] = [{ stored: root, place: rootPlace }];
  for (const level of levels) {
    for (const stored of level) {
      const parentPlace = places.get(stored.node.parentId ?? '');
      if (!parentPlace) throw new Error(`subtree read out of order at ${stored.node.id}`);
      const place = childPlace(parentPlace, stored.node.parentId!, stored.node.position, keyOf(stored.node));
      places.set(stored.node.id, place);
      placed.push({ stored, place });
    }
  }
  return placed;
}

/**
 * The projection items of `node` at `place`: the strategy's items, those that carry a copy of
 * the node (TreeStrategy.carriesNode) with the node's fields.
 */
export function projectionItems(strategy: TreeStrategy, node: TreeNode, place: Place): Array<Item & Key> {
  return strategy.itemsFor(node.id, place).map((item) => {
    if (!strategy.carriesNode(item)) return item;
    const copy = { ...item, ...nodeAttributes(node) };
    for (const field of strategy.copyLacks?.(item) ?? []) delete copy[field];
    return copy;
  });
}

/** A projection item that carries a copy of a node, and the node fields that copy leaves out. */
export interface Copy {
  key: Key;
  lacks: readonly CopyLack[];
}

/** The projection items that carry a copy of a stored node, at its kept place. */
export function copiesOf(strategy: TreeStrategy, stored: StoredNode): Copy[] {
  return strategy
    .itemsFor(stored.node.id, placeOf(strategy, stored))
    .filter((item) => strategy.carriesNode(item))
    .map((item) => ({ key: keyOf(item), lacks: strategy.copyLacks?.(item) ?? [] }));
}

/**
 * The condition that a node has not changed since it was read, when its items carry a copy of
 * it: a copy put from a stale read would otherwise outlive a rename that committed meanwhile.
 */
function unchangedCopies(strategy: TreeStrategy, { stored, place }: PlacedNode): Condition[] {
  const copies = strategy.itemsFor(stored.node.id, place).some((item) => strategy.carriesNode(item));
  return copies ? [{ equals: ['rev', stored.rev] }] : [];
}

/** Conditions that a node item still keeps the place fields `fields`. */
const keepsPlace = (fields: PlaceFields): Condition[] =>
  Object.entries(fields).map(([name, value]): Condition => ({ equals: [name, value] }));

/** The projection items of a new node (its node item carries nodeFields already). */
export function planProjectionCreate(
  tx: TransactionBuilder,
  strategy: TreeStrategy,
  node: TreeNode,
  place: Place,
): void {
  for (const item of projectionItems(strategy, node, place)) tx.put(item);
}

/**
 * A moved subtree's projection, in the move's own transaction: every node's projection
 * rewritten (planProjectionRewrite), then the strategy's guard on the subtree.
 */
export function planProjectionMove(tx: TransactionBuilder, strategy: TreeStrategy, moved: MovedNode[]): void {
  planProjectionRewrite(tx, strategy, moved);
  strategy.guardSubtree(tx, moved);
}

/**
 * For each node, the difference between its items at the old and the new place (items in
 * both, equal, are left alone), and its node fields rewritten on the condition that they still
 * hold the old place. Alone, it is a move job's chunk: idempotent, and refused for a node that
 * moved (or was deleted) since it was read.
 */
export function planProjectionRewrite(tx: TransactionBuilder, strategy: TreeStrategy, moved: MovedNode[]): void {
  for (const node of moved) {
    for (const step of projectionSteps(strategy, node)) step(tx);
    planPlaceFields(tx, strategy, node);
  }
}

/** One write of a projection rewrite, on its own. */
export type ProjectionStep = (tx: TransactionBuilder) => void;

/**
 * The item writes of one node's move, one step each: its items at the old place that the new
 * place lacks, deleted; its items at the new place, put unless already there, equal. Steps of
 * one node may be committed in several transactions (a closure node at depth 64 has 127), each
 * with planKeepsPlace, and planPlaceFields last: until then, the node keeps its old place.
 */
export function projectionSteps(
  strategy: TreeStrategy,
  { stored, place, newPlace, moved }: MovedNode,
): ProjectionStep[] {
  const before = new Map(projectionItems(strategy, stored.node, place).map((item) => [keyString(item), item]));
  const after = new Map(
    projectionItems(strategy, moved ?? stored.node, newPlace).map((item) => [keyString(item), item]),
  );
  const steps: ProjectionStep[] = [];
  for (const [key, item] of before) if (!after.has(key)) steps.push((tx) => tx.delete(keyOf(item)));
  for (const [key, item] of after) if (!sameItem(before.get(key), item)) steps.push((tx) => tx.put(item));
  return steps;
}

/**
 * The node's place fields rewritten, on the condition that they still hold the old place (and,
 * when its items carry copies of it, that it did not change since it was read).
 */
export function planPlaceFields(tx: TransactionBuilder, strategy: TreeStrategy, node: MovedNode): void {
  const oldFields = strategy.nodeFields(node.place);
  const newFields = strategy.nodeFields(node.newPlace);
  const unchanged = [{ exists: true } as const, ...keepsPlace(oldFields), ...unchangedCopies(strategy, node)];
  // A field the new place leaves out (path keys no longer set) goes.
  const remove = Object.keys(oldFields).filter((field) => !(field in newFields));
  if (!sameItem(oldFields, newFields))
    tx.update(nodeKey(node.stored.node.id), { set: { ...newFields }, remove }, ...unchanged);
  else if (unchanged.length > 1) tx.check(nodeKey(node.stored.node.id), ...unchanged);
}

/** The condition that the node still keeps its old place (for steps committed apart). */
export function planKeepsPlace(tx: TransactionBuilder, strategy: TreeStrategy, node: MovedNode): void {
  tx.check(
    nodeKey(node.stored.node.id),
    { exists: true },
    ...keepsPlace(strategy.nodeFields(node.place)),
    ...unchangedCopies(strategy, node),
  );
}

/**
 * Removes the projection items of deleted nodes, on the condition that each node still keeps
 * the place they were computed from (a move above a node rewrites its place fields without
 * bumping its rev, so the truth's own conditions would not notice).
 */
export function planProjectionDelete(tx: TransactionBuilder, strategy: TreeStrategy, nodes: PlacedNode[]): void {
  for (const { stored, place } of nodes) {
    const guards = keepsPlace(strategy.nodeFields(place));
    if (guards.length > 0) tx.check(nodeKey(stored.node.id), ...guards);
    for (const item of strategy.itemsFor(stored.node.id, place)) tx.delete(keyOf(item));
  }
}

export const keyOf = (item: Key): Key => ({ pk: item.pk, sk: item.sk });

const sameItem = (a: object | undefined, b: object): boolean =>
  a !== undefined && JSON.stringify(a) === JSON.stringify(b);
