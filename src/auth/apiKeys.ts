import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { batchGetItems } from '../dynamodb/batchGet.js';
import { decodeItem } from '../dynamodb/decodeItem.js';
import type { Dynamo } from '../dynamodb/client.js';
import { keyQuery } from '../dynamodb/keyQuery.js';
import { API_KEYS_PK, keyString, type Key } from '../dynamodb/keys.js';
import { queryItems } from '../dynamodb/query.js';
import { TransactionBuilder } from '../dynamodb/transactionBuilder.js';
import { transactWrite } from '../dynamodb/transactWrite.js';
import { notFound } from '../errors.js';
import type { Level } from './grants.js';

type Doc = Dynamo['doc'];
const keyOf = (id: string): Key => ({ pk: API_KEYS_PK, sk: id });

/**
 * API keys (AUTH=apikey): `canopy_<id>_<secret>`. The table keeps, per key, its id, a name, when
 * it was created and revoked, and the SHA-256 of its secret, never the secret itself: whoever
 * reads the table cannot call the API with what they read. `npm run tree -- keys` manages them.
 */
export interface ApiKey {
  id: string;
  name: string;
  createdAt: string;
  revokedAt: string | null;
  /** The trees it may read, write or administer, as a permissions claim (`{ rootId | "*": level }`); absent: all. */
  trees?: Record<string, Level>;
  /** The tenant whose trees it reaches; absent: the default tenant. */
  tenant?: string;
}

/** A key as stored: with its secret's hash. */
export type StoredApiKey = ApiKey & { hash: string };

/** Pure: `catalog=write,*=read` as a trees map; throws on anything else. */
export function parseTrees(text: string): Record<string, Level> {
  const trees: Record<string, Level> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([A-Za-z0-9_.:-]{1,64}|\*)=(read|write|admin)$/.exec(part);
    if (!match) throw new Error(`--trees takes ROOT_ID=read|write|admin (or *=...), comma-separated; got "${part}"`);
    trees[match[1]!] = match[2] as Level;
  }
  return trees;
}

const KEY_PATTERN = /^canopy_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** Pure: the id and secret of a presented key, or null when it is not shaped like one. */
export function parseApiKey(presented: string): { id: string; secret: string } | null {
  const match = KEY_PATTERN.exec(presented);
  return match ? { id: match[1]!, secret: match[2]! } : null;
}

/** Pure: what the table keeps of a secret. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Pure: whether a presented secret is the one whose hash is kept, in constant time. */
export function secretMatches(secret: string, hash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const kept = Buffer.from(hash, 'hex');
  return presented.length === kept.length && timingSafeEqual(presented, kept);
}

/** An API key's record as stored (pk APIKEYS, sk its id): its grants and tenant, and the hash of its secret. */
export const API_KEY_ITEM = z.object({
  sk: z.string(),
  name: z.string().optional(),
  createdAt: z.string(),
  revokedAt: z.string().optional(),
  trees: z.record(z.string(), z.enum(['read', 'write', 'admin'])).optional(),
  tenant: z.string().optional(),
  hash: z.string(),
});

/** A key's record as read (decoded by its schema: MalformedItem names a record that is not one). */
function storedKey(item: Record<string, unknown>): StoredApiKey {
  const stored = decodeItem(API_KEY_ITEM, item);
  return {
    id: stored.sk,
    name: stored.name ?? '',
    createdAt: stored.createdAt,
    revokedAt: stored.revokedAt ?? null,
    ...(stored.trees ? { trees: stored.trees } : {}),
    ...(stored.tenant !== undefined ? { tenant: stored.tenant } : {}),
    hash: stored.hash,
  };
}

const publicKey = ({ hash: _hash, ...key }: StoredApiKey): ApiKey => key;

/** A new key: stored by its hash; the whole key is in the answer, and nowhere else. */
export async function createApiKey(
  doc: Doc,
  table: string,
  name: string,
  scope: Pick<ApiKey, 'trees' | 'tenant'> = {},
): Promise<ApiKey & { key: string }> {
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const createdAt = new Date().toISOString();
  const { trees, tenant } = scope;
  const scoping = { ...(trees ? { trees } : {}), ...(tenant ? { tenant } : {}) };
  const tx = new TransactionBuilder(table).put(
    { ...keyOf(id), name, hash: hashSecret(secret), createdAt, ...scoping },
    { notExists: true },
  );
  await transactWrite(doc, tx.build());
  return { id, name, createdAt, revokedAt: null, ...scoping, key: `canopy_${id}_${secret}` };
}

export async function listApiKeys(doc: Doc, table: string): Promise<ApiKey[]> {
  const { items } = await queryItems(doc, { ...keyQuery(table, { pk: API_KEYS_PK }), ConsistentRead: true });
  return items.map((item) => publicKey(storedKey(item)));
}

/** Revokes a key for good (its record stays, for the list). NOT_FOUND for an unknown id. */
export async function revokeApiKey(doc: Doc, table: string, id: string): Promise<ApiKey> {
  const found = await findApiKey(doc, table, id);
  if (!found) throw notFound('API key', id);
  if (found.revokedAt !== null) return publicKey(found);
  const revokedAt = new Date().toISOString();
  const tx = new TransactionBuilder(table).update(keyOf(id), { set: { revokedAt } }, { exists: true });
  await transactWrite(doc, tx.build());
  return { ...publicKey(found), revokedAt };
}

/** The stored record of a key id (strongly consistent), or null. */
export async function findApiKey(doc: Doc, table: string, id: string): Promise<StoredApiKey | null> {
  const item = (await batchGetItems(doc, table, [keyOf(id)])).get(keyString(keyOf(id)));
  return item ? storedKey(item) : null;
}
