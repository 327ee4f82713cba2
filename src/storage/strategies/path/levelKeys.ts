import { createHash } from 'node:crypto';
import type { Key } from '../../../dynamodb/keys.js';

/** pk prefix of a level collection (the nodes of one tree at one depth). */
export const LEVEL_PK_PREFIX = 'L#';
import type { KeyQuery } from '../../../dynamodb/keyQuery.js';

/**
 * The path strategy's level items: one per node, in the collection of its tree and absolute
 * depth (pk = L#<rootId>#<depth>), sorted by its encoded path (sk). The descendants of X at one
 * depth are then one exact Query: that level's collection, sk beginning with X's encoded path.
 *
 * A path of 64 ids of 64 characters is 4 KB, over DynamoDB's 1024-byte sort key, so each id is
 * encoded as a fixed 8-character token (48 bits of its SHA-256): 64 levels take 512 bytes. The
 * item keeps the real path, so a token collision is detected and skipped, never returned.
 */
export const TOKEN_LENGTH = 8;

export const idToken = (id: string): string =>
  createHash('sha256').update(id).digest('base64url').slice(0, TOKEN_LENGTH);

export const encodePath = (ids: readonly string[]): string => ids.map(idToken).join('');

export const levelPk = (rootId: string, depth: number): string => `${LEVEL_PK_PREFIX}${rootId}#${depth}`;

/** The level item key of a node with ancestors `path` (root first). */
export function levelKey(path: readonly string[], id: string): Key {
  return { pk: levelPk(path[0] ?? id, path.length), sk: encodePath([...path, id]) };
}

/** The level item of a node with ancestors `path`: its key, its id and its real path. */
export const levelItem = (path: readonly string[], id: string) => ({ ...levelKey(path, id), id, path: [...path] });

/**
 * The level items `relativeDepth` levels below the node `id` whose ancestors are `path`: that
 * depth's collection of its tree, sort keys beginning with the node's encoded path.
 */
export function levelQuery(path: readonly string[], id: string, relativeDepth: number, afterSk?: string): KeyQuery {
  return {
    pk: levelPk(path[0] ?? id, path.length + relativeDepth),
    sk: { beginsWith: encodePath([...path, id]) },
    ...(afterSk === undefined ? {} : { after: afterSk }),
  };
}
