import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { decoderOf } from '../../../dynamodb/decodeItem.js';
import { collectionPk, edgeSk, NODE_PK_PREFIX, NODE_SK, nodeKey, type Item, type Key } from '../../../dynamodb/keys.js';
import type { StoredNode } from '../../strategy.js';
import { nodeWith, OPTIONAL_FIELDS, type LeftOut, type TreeNode } from '../../treeStore.js';

/**
 * The truth's item layout, the same under every strategy (docs/design.md, "Truth and
 * projections"; the prefixes are in dynamodb/keys.ts).
 *
 *   node item   pk = N#<id>         sk = NODE                 the node
 *   edge item   pk = N#<parentId>   sk = E#<position>#<id>    a full copy of the child, in its
 *               pk = ROOTS          sk = E#<position>#<id>    parent's item collection (roots
 *                                                             have a collection of their own)
 *   path key    pk = N#<parentId>   sk = K#<value>            the child that holds a path key
 *                                                             value (below: PATH_KEY_ITEM)
 *
 * Children are then one strongly consistent Query in sibling order ('#' sorts below every
 * position character, so "E#<position>#<id>" orders by position, then id). The edge item is a
 * full copy so that a page of children costs that one Query and no BatchGet; every write to a
 * node writes its edge copy in the same transaction.
 *
 * Internal attributes: `rev` counts every write to the node (any change, childCount included;
 * node item and edge copy always carry the same rev) and lets a writer condition on "nothing
 * changed since I read it"; `deleting` marks
 * a node of a subtree that a delete job is removing: such a node reads as absent and accepts no
 * new children. A node item may also keep place fields (`path`, `lineage`), when the strategy keeps them
 * (TreeStrategy.nodeFields).
 */
export { collectionPk, edgeSk, nodeKey } from '../../../dynamodb/keys.js';
export { existing } from '../../strategy.js';
/** Whether a table item is a node item (the truth), by its key. */
export const isNodeKey = (key: Key): boolean => key.sk === NODE_SK && key.pk.startsWith(NODE_PK_PREFIX);
export const edgeKey = (node: Pick<TreeNode, 'parentId' | 'position' | 'id'>): Key => ({
  pk: collectionPk(node.parentId),
  sk: edgeSk(node.position, node.id),
});

/** The node's own attributes, as stored in both its node item and its edge copy. */
export function nodeAttributes(node: TreeNode): Item {
  return {
    id: node.id,
    parentId: node.parentId ?? undefined,
    name: node.name,
    position: node.position,
    version: node.version,
    childCount: node.childCount,
    data: node.data ?? undefined,
    type: node.type,
    createdAt: node.createdAt,
    updatedAt: node.updatedAt,
  };
}

/**
 * The attribute of a node item written by an IMPORT job before its nodes join the tree: the
 * job's id. While the job lists it as importing (openJobs.ts), every read and write takes the
 * node for absent (visibleNodes.ts); once it has joined, the attribute means nothing.
 */
export const PENDING = 'pending';

/**
 * A new incarnation stamp (TreeNode.incarnation): 64 random bits. Kept in the node item and its
 * edge copy (the items writes read and condition on), not in the projection's copies.
 */
export const newIncarnation = (): string => randomBytes(8).toString('base64url');

/** The incarnation attribute, when the node has one (nodes written before stamps have none). */
const incarnationOf = (node: TreeNode): Item => (node.incarnation ? { incarnation: node.incarnation } : {});

/** The node item; it also keeps the node's place fields (path, lineage, keys) when the strategy keeps them. */
export function nodeItem(node: TreeNode, rev: number): Item & Key {
  return {
    ...nodeKey(node.id),
    ...nodeAttributes(node),
    ...incarnationOf(node),
    path: node.path,
    lineage: node.lineage,
    keys: node.keys,
    rev,
  };
}

export function edgeItem(node: TreeNode, rev: number): Item & Key {
  return { ...edgeKey(node), ...nodeAttributes(node), ...incarnationOf(node), rev };
}

const strings = z.array(z.string());

/**
 * A node item, or an edge copy, as stored: the node's attributes (its internal ones aside). The
 * one description of them: the checks that decode a page of nodes by hand are derived from it
 * (dynamodb/fieldChecks.ts), and it explains an item that fails them.
 */
export const NODE_ITEM = z.object({
  id: z.string(),
  parentId: z.string().optional(),
  name: z.string(),
  position: z.string(),
  version: z.number(),
  childCount: z.number().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  type: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  incarnation: z.string().optional(),
  path: strings.optional(),
  lineage: strings.optional(),
  keys: strings.optional(),
});

/** The internal attributes of a node item or edge copy: what a writer conditions on (StoredNode). */
export const NODE_INTERNALS = z.object({
  rev: z.number().optional(),
  deleting: z.string().optional(),
  [PENDING]: z.string().optional(),
  respacing: z.number().optional(),
  claim: z.string().optional(),
});

/** A node item or edge copy with every attribute it may hold. */
export const STORED_NODE_ITEM = NODE_ITEM.extend(NODE_INTERNALS.shape);

const decodeNode = decoderOf(NODE_ITEM);
const decodeInternals = decoderOf(NODE_INTERNALS);

/** A node item or an edge copy, back to a node; MalformedItem, naming its key, when it is not one. */
export function nodeFromItem(item: Item): TreeNode {
  const stored = decodeNode(item);
  const path = stored.path;
  // One object shape for every node (place fields undefined when not kept): pages of a
  // thousand nodes are built here, and a shape per case would make every reader slower.
  return {
    id: stored.id,
    parentId: stored.parentId ?? null,
    name: stored.name,
    position: stored.position,
    version: stored.version,
    childCount: stored.childCount ?? 0,
    data: stored.data ?? null,
    type: stored.type,
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
    incarnation: stored.incarnation,
    depth: path?.length,
    rootId: path ? (path[0] ?? stored.id) : undefined,
    path,
    lineage: stored.lineage,
    keys: stored.keys,
  };
}

/** The attributes of a node item or copy that hold a node's fields (what nodeFromItem reads). */
const NODE_ATTRIBUTES = [
  ...Object.keys({ id: 1, parentId: 1, position: 1, childCount: 1, type: 1, path: 1, lineage: 1, keys: 1 } satisfies {
    [field in keyof TreeNode]?: 1;
  }),
  ...OPTIONAL_FIELDS,
];

/** What a Query of items carrying copies reads for nodes without the fields `leftOut` (its ProjectionExpression). */
export const attributesRead = (leftOut: LeftOut): string[] =>
  NODE_ATTRIBUTES.filter((name) => name === 'childCount' || !(leftOut as readonly string[]).includes(name));

const builders = new Map<string, (item: Item) => TreeNode>();

/**
 * How node items or copies read without the fields `leftOut` (attributesRead) become nodes: the
 * other fields as nodeFromItem gives them, checked as it checks them; the ones left out throw
 * when read, so that no caller ever takes a field that was not read for a value. Made once per
 * set of fields (a page of a thousand items is built with one).
 */
export function nodeFromItemWithout(leftOut: LeftOut): (item: Item) => TreeNode {
  if (leftOut.length === 0) return nodeFromItem;
  const key = leftOut.join();
  const known = builders.get(key);
  if (known) return known;
  const out = leftOut as readonly string[];
  const kept = OPTIONAL_FIELDS.filter((field) => !out.includes(field));
  const mask: { [field in LeftOut[number]]?: true } = Object.fromEntries(leftOut.map((field) => [field, true]));
  // NODE_ITEM's checks of the fields read, and only those.
  const decode = decoderOf(NODE_ITEM.omit(mask));
  const fail = (field: string) => () => {
    throw new Error(`node field ${field} was left out of this read: no field of the operation asked for it`);
  };
  const prototype = Object.create(
    Object.prototype,
    Object.fromEntries(leftOut.map((field) => [field, { get: fail(field) }])),
  ) as object;
  const build = (item: Item): TreeNode => {
    const stored = decode(item);
    const node = Object.create(prototype) as Record<string, unknown>;
    const path = stored.path;
    node.id = stored.id;
    node.parentId = stored.parentId ?? null;
    node.position = stored.position;
    node.type = stored.type;
    // The fields that may be left out, when read: decoded above (`stored` is the item itself,
    // typed without them).
    if (!out.includes('childCount')) node.childCount = item.childCount ?? 0;
    for (const field of kept) node[field] = field === 'data' ? (item.data ?? null) : item[field];
    node.depth = path?.length;
    node.rootId = path ? (path[0] ?? stored.id) : undefined;
    node.path = path;
    node.lineage = stored.lineage;
    return node as unknown as TreeNode;
  };
  builders.set(key, build);
  return build;
}

/** The node at the place whose ancestors are `path` (a strategy that keeps paths). */
export const withPath = (node: TreeNode, path: string[]): TreeNode =>
  nodeWith(node, { path, depth: path.length, rootId: path[0] ?? node.id });

/** A node item or an edge copy as a write reads it, the node and its internal attributes; MalformedItem if not one. */
export function storedFromItem(item: Item): StoredNode {
  const node = nodeFromItem(item);
  const { rev, deleting, [PENDING]: pending, respacing, claim } = decodeInternals(item);
  return {
    node,
    rev: rev ?? 0,
    deleting,
    ...(pending !== undefined ? { pending } : {}),
    ...(respacing !== undefined ? { respacing } : {}),
    ...(claim !== undefined ? { claim } : {}),
  };
}

/**
 * A path key item (in the layout above: pk = N#<parentId>, sk = K#<value>): what makes a path key
 * (NODE_TYPES's `@pathKey`) unique among siblings, and a path a lookup (docs/contract.md,
 * "Paths"). `live` names the child holding the value; without it, `id` names the child that held
 * it until it moved or was renamed, kept for the history's retention (`expiresAt`).
 *
 * Every write that gives a node a path key, changes its value or parent, or deletes it, writes
 * the item in its own transaction (writePlans.ts planPathKeys) on the condition that no other
 * child holds the value (`live` absent or the node's own): of two concurrent creates of one value
 * under one parent, one commits and the other fails its condition (ALREADY_EXISTS). The value a
 * node leaves stays as a marker naming it, so that an old path still finds the node (flagged as
 * moved), until a sibling takes the value or the marker expires. Nodes below a deleted one keep
 * their items (in their parents' collections, which no path reaches once the deleted node's item
 * is gone): a restore finds them as they were.
 */

/** The attribute naming the child that holds the value now. */
export const LIVE = 'live';

/** A path key item as stored. */
export const PATH_KEY_ITEM = z.object({
  id: z.string(),
  live: z.string().optional(),
  movedAt: z.string().optional(),
  expiresAt: z.number().optional(),
});
