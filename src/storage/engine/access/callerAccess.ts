import { atLeast } from '../../../auth/grants.js';
import { batchGetItems } from '../../../dynamodb/batchGet.js';
import { keyString } from '../../../dynamodb/keys.js';
import { notFound, TreeError } from '../../../errors.js';
import type { AccessLevel, CallerGrants } from '../../treeStore.js';
import type { CallerAccess, GrantGuard, HeldGrant, HeldGrants, TableContext } from '../core/engineContext.js';
import { grantsOfPrincipal, planGrantHeld, principalKey } from './grantItems.js';

/** Pure: whether `held` (null: nothing) is at least `needed`. */
const reaches = atLeast;

/**
 * Pure: the caller's level on the node of `chain` (root first, the node last): the highest of
 * its level on the tree and the grants it holds on the chain's nodes (a grant is inherited by
 * the grantee's subtree).
 */
export function levelIn(grants: CallerGrants, held: HeldGrants, chain: readonly string[]): AccessLevel | null {
  const tree = chain.length > 0 ? grants.trees(chain[0]!) : null;
  const granted = grantedIn(held, chain);
  return reaches(tree, granted ?? 'read') ? tree : granted;
}

/** Pure: the highest level the grants `held` give on the node of `chain`. */
export function grantedIn(held: HeldGrants, chain: readonly string[]): AccessLevel | null {
  let level: AccessLevel | null = null;
  for (const id of chain) {
    const grant = held.get(id);
    if (grant && !reaches(level, grant.level)) level = grant.level;
  }
  return level;
}

/**
 * Pure: where the caller's `needed` on the node of `chain` comes from: its level on the tree
 * ('tree'), else the highest grant on the chain that gives it; undefined when nothing does.
 */
export function sourceOf(
  grants: CallerGrants,
  held: HeldGrants,
  chain: readonly string[],
  needed: AccessLevel,
): HeldGrant | 'tree' | undefined {
  if (chain.length > 0 && reaches(grants.trees(chain[0]!), needed)) return 'tree';
  for (const id of chain) {
    const grant = held.get(id);
    if (grant && reaches(grant.level, needed)) return grant;
  }
  return undefined;
}

/** The grants of principals' items, by node (the highest level where two principals hold one). */
export function heldOf(
  items: ReadonlyArray<{ principal: string; grants: ReadonlyMap<string, AccessLevel> }>,
): HeldGrants {
  const held = new Map<string, HeldGrant>();
  for (const { principal, grants } of items) {
    for (const [nodeId, level] of grants) {
      if (!reaches(held.get(nodeId)?.level, level)) held.set(nodeId, { nodeId, principal, level });
    }
  }
  return held;
}

/** The grants the caller's principals hold: one BatchGetItem of their items (none without principals). */
export async function readHeld(
  ctx: Pick<TableContext, 'doc' | 'table'>,
  principals: readonly string[],
): Promise<HeldGrants> {
  if (principals.length === 0) return new Map();
  const items = await batchGetItems(ctx.doc, ctx.table, principals.map(principalKey));
  return heldOf(
    principals.map((principal) => {
      const item = items.get(keyString(principalKey(principal)));
      return { principal, grants: item ? grantsOfPrincipal(item) : new Map<string, AccessLevel>() };
    }),
  );
}

/**
 * A caller's access in one store (EngineContext.access): its grants read once, the first time
 * its credentials' level on a tree does not settle a check, and read again after `forget`.
 */
export function createCallerAccess(ctx: Pick<TableContext, 'doc' | 'table'>, grants: CallerGrants): CallerAccess {
  let reading: Promise<HeldGrants> | undefined;
  const held = (): Promise<HeldGrants> => {
    if (!reading) {
      const read = readHeld(ctx, grants.principals);
      reading = read;
      read.catch(() => reading === read && (reading = undefined));
    }
    return reading;
  };
  const principalKeys = new Set(grants.principals.map((p) => keyString(principalKey(p))));
  return {
    held,
    async levelOn(chain) {
      const tree = chain.length > 0 ? grants.trees(chain[0]!) : null;
      if (tree === 'admin' || grants.principals.length === 0) return tree;
      return levelIn(grants, await held(), chain);
    },
    async levels() {
      const known = await held();
      return (chain) => levelIn(grants, known, chain);
    },
    async require(chain, needed, label, id): Promise<GrantGuard> {
      const tree = chain.length > 0 ? grants.trees(chain[0]!) : null;
      if (reaches(tree, needed)) return () => {};
      const known = grants.principals.length === 0 ? new Map<string, HeldGrant>() : await held();
      const source = sourceOf(grants, known, chain, needed);
      if (source === 'tree') return () => {};
      if (source) return (tx) => planGrantHeld(tx, source.principal, source.nodeId, source.level);
      refuse(levelIn(grants, known, chain), needed, label, id);
    },
    async requireMove(from, to, id) {
      const known = grants.principals.length === 0 ? new Map<string, HeldGrant>() : await held();
      const source = sourceOf(grants, known, from, 'write');
      if (source === 'tree' || (source && source.nodeId !== id && to.includes(source.nodeId))) return () => {};
      const admin = sourceOf(grants, known, from, 'admin');
      if (admin === 'tree') return () => {};
      if (admin) return (tx) => planGrantHeld(tx, admin.principal, admin.nodeId, admin.level);
      throw new TreeError(
        'FORBIDDEN',
        `node "${id}" may be moved out of, or deleted from, the subtree shared with you only by who may administer it`,
        { id },
      );
    },
    guards: (key) => principalKeys.has(key),
    forget() {
      reading = undefined;
    },
  };
}

/** Refuses a write: NOT_FOUND to a caller who may not read the node either, FORBIDDEN otherwise. */
function refuse(level: AccessLevel | null, needed: AccessLevel, label: string, id: string): never {
  if (level === null) throw notFound(label, id);
  const not = needed === 'admin' ? 'grant access to it' : 'change it';
  throw new TreeError('FORBIDDEN', `you may ${level} ${label} "${id}" but not ${not}`, { id });
}
