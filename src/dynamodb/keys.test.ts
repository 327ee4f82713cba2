import { describe, expect, it } from 'vitest';
import {
  API_KEYS_PK,
  CLOSURE_SK_PREFIX,
  EDGE_SK_END,
  EDGE_SK_PREFIX,
  JOB_SK_PREFIX,
  JOBS_PK,
  LEGACY_DELETE_SK_PREFIX,
  OPEN_JOBS_SK,
  keyString,
  LEVEL_PK_PREFIX,
  NODE_PK_PREFIX,
  NODE_SK,
  REINDEX_PK,
  ROOTS_PK,
  TENANT_PK_PREFIX,
  TENANTS_PK,
} from './keys.js';

const collide = (values: string[]) =>
  values.flatMap((a, i) => values.filter((b, j) => i !== j && b.startsWith(a)).map((b) => `${a} / ${b}`));

describe('the key layout', () => {
  it('gives every kind of partition its own prefix', () => {
    expect(collide([NODE_PK_PREFIX, ROOTS_PK, LEVEL_PK_PREFIX, JOBS_PK, REINDEX_PK, API_KEYS_PK, TENANT_PK_PREFIX, TENANTS_PK])).toEqual([]);
  });

  it('gives every kind of item in a node collection its own sort key prefix', () => {
    expect(collide([NODE_SK, EDGE_SK_PREFIX, CLOSURE_SK_PREFIX])).toEqual([]);
  });

  it('gives every kind of item in the jobs collection its own sort key prefix', () => {
    expect(collide([JOB_SK_PREFIX, OPEN_JOBS_SK, LEGACY_DELETE_SK_PREFIX])).toEqual([]);
  });

  it('bounds every edge sort key from above', () => {
    const edge = `${EDGE_SK_PREFIX}zzzzzz#${'z'.repeat(64)}`;
    expect(edge < EDGE_SK_END).toBe(true);
    expect(CLOSURE_SK_PREFIX < EDGE_SK_PREFIX || CLOSURE_SK_PREFIX > EDGE_SK_END).toBe(true);
  });

  it('joins pk and sk with a character no key holds', () => {
    expect(keyString({ pk: 'N#a', sk: 'NODE' })).toBe('N#a\u0000NODE');
    expect(keyString({ pk: 'a', sk: 'bc' })).not.toBe(keyString({ pk: 'ab', sk: 'c' }));
  });
});
