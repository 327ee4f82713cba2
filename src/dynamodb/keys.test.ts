import { describe, expect, it } from 'vitest';
import * as keys from './keys.js';
import { STRATEGIES } from '../storage/strategies/strategies.js';
import { ID_PATTERN } from '../storage/validation.js';
import {
  CHANGE_HEAD_SK,
  CHANGE_SK_PREFIX,
  CHANGES_PK_PREFIX,
  DEFAULT_TENANT_SK,
  DELETED_ENTRY_SK,
  DELETED_LIST_PK,
  DELETED_PACK_SK_PREFIX,
  EDGE_SK_END,
  EDGE_SK_PREFIX,
  GRANT_SK_PREFIX,
  HISTORY_SK_PREFIX,
  IMPORT_PACK_SK_PREFIX,
  IMPORT_PACKS_PK_PREFIX,
  JOB_SK_PREFIX,
  LEGACY_DELETE_SK_PREFIX,
  NODE_SK,
  PATH_KEY_SK_PREFIX,
  OPEN_ENTRY_SK_PREFIX,
  OPEN_JOBS_SK,
  keyString,
  PRINCIPAL_SK,
} from './keys.js';

/** Every constant of keys.ts whose name ends with one of `suffixes`: a prefix added there is checked here. */
const constants = (...suffixes: string[]): Array<[string, string]> =>
  Object.entries(keys as Record<string, unknown>).flatMap(([name, value]): Array<[string, string]> =>
    typeof value === 'string' && suffixes.some((s) => name.endsWith(s)) ? [[name, value]] : [],
  );

/** The prefixes every strategy declares for its own items (TreeStrategy.keyPrefixes). */
const strategyPrefixes = (kind: 'pk' | 'sk') => STRATEGIES.flatMap((strategy) => strategy.keyPrefixes[kind]);

/** The sort keys and prefixes of each kind of item collection (one with a single kind of item: its prefix). */
const SORT_KEYS_BY_COLLECTION = {
  node: [NODE_SK, EDGE_SK_PREFIX, PATH_KEY_SK_PREFIX, GRANT_SK_PREFIX, ...strategyPrefixes('sk')],
  principal: [PRINCIPAL_SK],
  jobs: [JOB_SK_PREFIX, OPEN_JOBS_SK, OPEN_ENTRY_SK_PREFIX, LEGACY_DELETE_SK_PREFIX],
  // A tree's log and a node's history and deleted subtree: one collection (C#<id>).
  changes: [CHANGE_HEAD_SK, CHANGE_SK_PREFIX, HISTORY_SK_PREFIX, DELETED_ENTRY_SK, DELETED_PACK_SK_PREFIX],
  importPacks: [IMPORT_PACK_SK_PREFIX],
  // Beside the tenants' names, which cannot collide with it (TENANT_PATTERN).
  strategies: [DEFAULT_TENANT_SK],
};

/** The whole keys among the constants (`_SK`, `_PK`): the others are prefixes, of every key that begins with them. */
const WHOLE = new Set(constants('_SK', '_PK').map(([, value]) => value));

/** Pairs of keys that one item could have both of: a prefix and what begins with it, or two equal whole keys. */
const collide = (values: string[]) =>
  values.flatMap((a, i) =>
    values
      .filter((b, j) => i !== j && (WHOLE.has(a) ? a === b && WHOLE.has(b) : b.startsWith(a)))
      .map((b) => `${a} / ${b}`),
  );

/** Partitions under the change logs' prefix, named so that no tree's id follows it there ('*' is no id character). */
const INSIDE_CHANGES = [DELETED_LIST_PK, IMPORT_PACKS_PK_PREFIX];

describe('the key layout', () => {
  it('gives every kind of partition its own prefix', () => {
    const partitions = [
      ...constants('_PK', '_PK_PREFIX')
        .map(([, value]) => value)
        .filter((value) => !INSIDE_CHANGES.includes(value)),
      ...strategyPrefixes('pk'),
    ];
    expect(partitions).toEqual(expect.arrayContaining(['N#', 'L#', 'S#', 'C#']));
    expect(collide(partitions)).toEqual([]);
  });

  it("keeps the partitions under the change logs' prefix apart from every tree's log and from each other", () => {
    for (const pk of INSIDE_CHANGES) {
      expect(pk.startsWith(CHANGES_PK_PREFIX)).toBe(true);
      // No id begins with the character that follows C# here: no `C#<id>` begins with the pk.
      expect(ID_PATTERN.test(pk.charAt(CHANGES_PK_PREFIX.length))).toBe(false);
    }
    expect(collide(INSIDE_CHANGES)).toEqual([]);
  });

  it('gives every kind of item in a collection its own sort key prefix', () => {
    for (const sortKeys of Object.values(SORT_KEYS_BY_COLLECTION)) expect(collide(sortKeys)).toEqual([]);
    // A whole key collides only with a prefix it begins with; a prefix with whatever begins with it.
    expect(collide([DELETED_ENTRY_SK, DELETED_PACK_SK_PREFIX])).toEqual([]);
    expect(collide(['DEL', DELETED_ENTRY_SK])).toEqual(['DEL / DELETED']);
    expect(collide([OPEN_JOBS_SK, OPEN_JOBS_SK])).toEqual(['OPEN / OPEN', 'OPEN / OPEN']);
    expect(SORT_KEYS_BY_COLLECTION.node).toContain('D#');
    // A sort key or prefix added to keys.ts must be placed in its collection above.
    const placed = new Set(Object.values(SORT_KEYS_BY_COLLECTION).flat());
    expect(constants('_SK', '_SK_PREFIX').filter(([, value]) => !placed.has(value))).toEqual([]);
  });

  it("names the default tenant's strategy record with no tenant's name", () => {
    expect(keys.TENANT_PATTERN.test(DEFAULT_TENANT_SK)).toBe(false);
    expect(keys.GLOBAL_PKS.has(keys.STRATEGIES_PK)).toBe(true);
  });

  it('bounds every edge sort key from above', () => {
    const edge = `${EDGE_SK_PREFIX}zzzzzz#${'z'.repeat(64)}`;
    expect(edge < EDGE_SK_END).toBe(true);
    for (const prefix of strategyPrefixes('sk')) expect(prefix < EDGE_SK_PREFIX || prefix > EDGE_SK_END).toBe(true);
  });

  it('joins pk and sk with a character no key holds', () => {
    expect(keyString({ pk: 'N#a', sk: 'NODE' })).toBe('N#a\u0000NODE');
    expect(keyString({ pk: 'a', sk: 'bc' })).not.toBe(keyString({ pk: 'ab', sk: 'c' }));
  });
});
