import { createHash } from 'node:crypto';
import { z } from 'zod';
import { decodeItem } from '../../../dynamodb/decodeItem.js';
import type { Item, Key } from '../../../dynamodb/keys.js';
import { keyQuery } from '../../../dynamodb/keyQuery.js';
import { queryItems } from '../../../dynamodb/query.js';
import type { Place, StrategyContext } from '../../strategy.js';

/** pk prefix of an address's collection: the nodes of one tree at one path of path keys. */
export const ADDRESS_PK_PREFIX = 'A#';

/**
 * The path strategy's addresses: one item per node whose every step below the root has a path
 * key (Place.keys), in the collection of its tree and path of path keys ("electronics/laptops"),
 * sorted by the node's id. A path is then one Query away from the node it names.
 *
 * A path of 90 steps of 200 characters is far over DynamoDB's key sizes, so the collection is
 * named by the path's SHA-256 (base64url); the item keeps the path itself, and a lookup passes
 * over an item of another path (a collision). Each node's item has its own key: while a move
 * job has yet to rewrite a node's address, a new node may take the path it left, and neither
 * write touches the other's item (the lookup tells them apart: reads/pathLookup.ts).
 */
export const addressPk = (rootId: string, path: string): string =>
  `${ADDRESS_PK_PREFIX}${rootId}#${createHash('sha256').update(path).digest('base64url')}`;

/** The address item of a node at `place`, when every step of its path has a path key (none for a root). */
export function addressItems(place: Place, id: string): Array<Item & Key> {
  const rootId = place.path[0];
  if (rootId === undefined || place.keys.some((key) => key === '')) return [];
  const path = place.keys.join('/');
  return [{ pk: addressPk(rootId, path), sk: id, id, address: path }];
}

/** An address item as stored. */
const ADDRESS_ITEM = z.object({ id: z.string(), address: z.string() });

/** The most nodes a lookup expects at one address: one, and those a move job has yet to move away. */
const ADDRESS_READ_LIMIT = 25;

/** TreeStrategy.addressed: one strongly consistent Query of the address's collection. */
export async function addressed(ctx: StrategyContext, rootId: string, path: string): Promise<string[]> {
  const { items } = await queryItems(ctx.doc, keyQuery(ctx.table, { pk: addressPk(rootId, path) }), ADDRESS_READ_LIMIT);
  return items
    .map((item) => decodeItem(ADDRESS_ITEM, item))
    .flatMap((found) => (found.address === path ? [found.id] : []));
}
