import { createHash } from 'node:crypto';
import { z } from 'zod';
import { decoderOf } from '../../../dynamodb/decodeItem.js';
import type { KeyQuery } from '../../../dynamodb/keyQuery.js';
import type { Item, Key } from '../../../dynamodb/keys.js';

/** pk prefix of a range collection (the nodes of one tree below its root). */
export const RANGE_PK_PREFIX = 'S#';
import { TreeError } from '../../../errors.js';
import type { Place } from '../../strategy.js';

/**
 * The nested-set strategy's range items: one per node below a root, whose sort key is the
 * node's document key. A node's document key is its parent's followed by one step, the node's
 * sibling position, a separator and a token of its id; so the keys of a subtree all begin with
 * its root's key, and the key order is the document order (a node, then its first child's whole
 * subtree, then its next child's...): a subtree is one contiguous key range, read in document
 * order by one Query.
 *
 * Why that order holds: sibling positions compare as plain strings (fractional indexing), and
 * the separator ('!') sorts below every position character, so a position that is a prefix of
 * its sibling's sorts first, as it does on its own. Siblings with equal positions (two
 * concurrent inserts into one slot, or a node placed between two such) are told apart by their
 * id tokens: the keys stay distinct, ordered by the tokens.
 *
 * Nothing here is a bound that runs out: a new node takes the key its position gives it, and no
 * other node's key changes; a move or a reorder rewrites the keys of the moved subtree only. A
 * key grows with the depth and with the length of the chain's positions (about 11 bytes a level
 * at first; a position grows by a character every few inserts into the same gap), and a sort
 * key holds at most 1,024 bytes: a write that would need a longer one is refused (DEPTH_LIMIT).
 *
 * Collections: the range items of one tree share one collection, `S#<rootId>`, so that the
 * subtree of any node, a root's included, is one key range of one collection (a root's: the
 * whole collection); the roots themselves have no range item. DynamoDB spreads one collection
 * over partitions by sort key as it grows or gets hot (no local index pins it to one).
 */
export const ID_TOKEN_LENGTH = 4;
const SEPARATOR = '!';
/** Above every character a document key holds (positions, separator, tokens are below '~'). */
const KEY_END = '~';
/** DynamoDB's limit on a sort key. */
export const MAX_SORT_KEY_BYTES = 1024;

export const rangeIdToken = (id: string): string =>
  createHash('sha256').update(id).digest('base64url').slice(0, ID_TOKEN_LENGTH);

/** One step of a document key: a sibling position and the id's token. */
export const documentStep = (position: string, id: string): string => `${position}${SEPARATOR}${rangeIdToken(id)}`;

/**
 * The document key of the node `id` at `place`, from its depth-1 ancestor down to itself;
 * null for a root. The ids of the chain are the place's path (without its root) and the node.
 */
export function documentKey(id: string, place: Place): string | null {
  const chain = [...place.path, id];
  if (chain.length < 2) return null;
  let key = '';
  for (let depth = 1; depth < chain.length; depth++) key += documentStep(place.lineage[depth]!, chain[depth]!);
  return key;
}

/** The range collection of a tree. */
export const rangePk = (rootId: string): string => `${RANGE_PK_PREFIX}${rootId}`;

/**
 * The key range of the subtree below the node `id` at `place`, the node's own item included
 * (none for a root): for a root, its whole collection; else the keys that begin with its own.
 */
export function subtreeKeys(id: string, place: Place): KeyQuery {
  const key = documentKey(id, place);
  const pk = rangePk(place.path[0] ?? id);
  return key === null ? { pk } : { pk, sk: { between: subtreeRange(key) } };
}

/**
 * The range item of the node `id` at `place`, [] for a root. It keeps the node's place (path
 * and lineage), from which a page of document order rebuilds the chain of edges of its cursor.
 */
export function rangeItems(id: string, place: Place): Array<Item & Key> {
  const sk = documentKey(id, place);
  if (sk === null) return [];
  const keyBytes = Buffer.byteLength(sk);
  if (keyBytes > MAX_SORT_KEY_BYTES) {
    throw new TreeError(
      'DEPTH_LIMIT',
      `node "${id}" would need a document key of ${keyBytes} bytes, ` +
        `over DynamoDB's ${MAX_SORT_KEY_BYTES}-byte sort key: ` +
        'the sibling positions on its chain are long (many inserts into one gap); ' +
        'place it higher, or use another TREE_STRATEGY',
      { depth: place.path.length, keyBytes, maxKeyBytes: MAX_SORT_KEY_BYTES },
    );
  }
  return [{ pk: rangePk(place.path[0]!), sk, id, path: [...place.path], lineage: [...place.lineage] }];
}

/**
 * A range item as stored (rangeItems): its node's id and place. The copy of its node it carries
 * is decoded as every copy is (StrategyContext.nodesOf).
 */
export const RANGE_ITEM = z.object({ id: z.string(), path: z.array(z.string()), lineage: z.array(z.string()) });
/** A range item's node and place. */
export type RangeItem = z.output<typeof RANGE_ITEM>;
const decodeRangeItem = decoderOf(RANGE_ITEM);

/** A range item's node and place, decoded (MalformedItem, naming its key, when it is not one). */
export const rangeItemOf = (item: Item): RangeItem => decodeRangeItem(item);

/** The key range of the subtree of a node whose document key is `key`: itself and every node below. */
export const subtreeRange = (key: string): [string, string] => [key, `${key}${KEY_END}`];

/**
 * The document key a PREORDER cursor points at: the origin's key followed by one step per edge
 * sort key of the cursor's chain (`E#<position>#<id>`, from the origin down).
 */
export function keyOfChain(originKey: string, chain: readonly string[]): string {
  let key = originKey;
  for (const sk of chain) {
    const idAt = sk.lastIndexOf('#');
    key += documentStep(sk.slice(sk.indexOf('#') + 1, idAt), sk.slice(idAt + 1));
  }
  return key;
}
