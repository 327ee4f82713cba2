import { unauthenticated } from '../errors.js';

/** What a caller may do with a tree. */
export type Level = 'read' | 'write';

/**
 * What a caller may read and write: every tree of the table (`all`), or the trees named by their
 * root ids. A token's permissions claim (PERMISSIONS_CLAIM, default `trees`) or an API key's
 * trees give them as `{ "<rootId>" | "*": "read" | "write" }`; absent, the caller may write
 * everything.
 */
export interface Grants {
  all: Level | null;
  trees: ReadonlyMap<string, Level>;
}

export const WRITE_ALL: Grants = { all: 'write', trees: new Map() };

/** Trees one caller may be granted by name (`roots` reads each of them by id). */
export const MAX_GRANTS = 1000;

/** Grants from a claim's value; a claim that is not a map of ids to levels is UNAUTHENTICATED. */
export function grantsFrom(claim: unknown, name = 'trees'): Grants {
  if (claim === undefined) return WRITE_ALL;
  const entries = claim !== null && typeof claim === 'object' && !Array.isArray(claim) ? Object.entries(claim) : null;
  if (!entries || entries.length > MAX_GRANTS || entries.some(([, level]) => level !== 'read' && level !== 'write')) {
    throw unauthenticated(`the ${name} claim must map at most ${MAX_GRANTS} root ids (or "*") to "read" or "write"`);
  }
  const trees = new Map(entries as Array<[string, Level]>);
  const all = trees.get('*') ?? null;
  trees.delete('*');
  return { all, trees };
}

export const canRead = (grants: Grants, rootId: string): boolean => grants.all !== null || grants.trees.has(rootId);
export const canWrite = (grants: Grants, rootId: string): boolean =>
  grants.all === 'write' || grants.trees.get(rootId) === 'write';

/** Pure: whether two callers' grants are the same (an open subscription's credentials checked again). */
export const sameGrants = (a: Grants, b: Grants): boolean =>
  a.all === b.all &&
  a.trees.size === b.trees.size &&
  [...a.trees].every(([root, level]) => b.trees.get(root) === level);
