import { unauthenticated } from '../errors.js';

/**
 * What a caller may do with a tree or a subtree, each level including the ones before it: read
 * it, write it (create, update, move, delete within it), administer it (grant and revoke).
 */
export type Level = 'read' | 'write' | 'admin';

export const LEVELS: readonly Level[] = ['read', 'write', 'admin'];

/** Pure: whether `held` (null: nothing) is at least `needed`. */
export const atLeast = (held: Level | null | undefined, needed: Level): boolean =>
  held !== null && held !== undefined && LEVELS.indexOf(held) >= LEVELS.indexOf(needed);

/** Pure: the higher of two levels (null: nothing). */
export const higher = (a: Level | null, b: Level | null): Level | null => (a === null || atLeast(b, a) ? b : a);

/**
 * What a caller's credentials give it on whole trees: every tree of the table (`all`), or the
 * trees named by their root ids. A token's permissions claim (PERMISSIONS_CLAIM, default
 * `trees`) or an API key's trees give them as `{ "<rootId>" | "*": "read" | "write" | "admin" }`;
 * absent, the caller may administer everything. Grants on subtrees, stored in the table, add
 * to these (docs/security.md).
 */
export interface Grants {
  all: Level | null;
  trees: ReadonlyMap<string, Level>;
}

export const ADMIN_ALL: Grants = { all: 'admin', trees: new Map() };

/** Trees one caller may be granted by name (`roots` reads each of them by id). */
export const MAX_GRANTS = 1000;

/** Grants from a claim's value; a claim that is not a map of ids to levels is UNAUTHENTICATED. */
export function grantsFrom(claim: unknown, name = 'trees'): Grants {
  if (claim === undefined) return ADMIN_ALL;
  const entries = claim !== null && typeof claim === 'object' && !Array.isArray(claim) ? Object.entries(claim) : null;
  if (!entries || entries.length > MAX_GRANTS || entries.some(([, level]) => !LEVELS.includes(level as Level))) {
    throw unauthenticated(
      `the ${name} claim must map at most ${MAX_GRANTS} root ids (or "*") to "read", "write" or "admin"`,
    );
  }
  const trees = new Map(entries as Array<[string, Level]>);
  const all = trees.get('*') ?? null;
  trees.delete('*');
  return { all, trees };
}

/** Pure: what the grants give on the tree of `rootId` (null: nothing). */
export const treeLevel = (grants: Grants, rootId: string): Level | null =>
  higher(grants.all, grants.trees.get(rootId) ?? null);

export const canRead = (grants: Grants, rootId: string): boolean => treeLevel(grants, rootId) !== null;
export const canWrite = (grants: Grants, rootId: string): boolean => atLeast(treeLevel(grants, rootId), 'write');

/** Pure: whether two callers' grants are the same (an open subscription's credentials checked again). */
export const sameGrants = (a: Grants, b: Grants): boolean =>
  a.all === b.all &&
  a.trees.size === b.trees.size &&
  [...a.trees].every(([root, level]) => b.trees.get(root) === level);
