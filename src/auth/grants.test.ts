import { describe, expect, it } from 'vitest';
import { isTreeError } from '../errors.js';
import { canRead, canWrite, grantsFrom, MAX_GRANTS, sameGrants, ADMIN_ALL } from './grants.js';

const refused = (claim: unknown): boolean => {
  try {
    grantsFrom(claim);
    return false;
  } catch (error) {
    return isTreeError(error, 'UNAUTHENTICATED');
  }
};

describe('grantsFrom', () => {
  it('grants everything without a claim, and what the claim names with one', () => {
    expect(grantsFrom(undefined)).toBe(ADMIN_ALL);
    const grants = grantsFrom({ a: 'write', b: 'read', '*': 'read' });
    expect(grants.all).toBe('read');
    expect([canRead(grants, 'c'), canWrite(grants, 'c'), canWrite(grants, 'a'), canWrite(grants, 'b')]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    const limited = grantsFrom({ a: 'read' });
    expect([limited.all, canRead(limited, 'a'), canRead(limited, 'b'), canWrite(limited, 'a')]).toEqual([
      null,
      true,
      false,
      false,
    ]);
  });

  it('refuses claims that are not a bounded map of ids to levels', () => {
    for (const claim of [null, 'a', ['a'], { a: 'owner' }, { a: true }]) expect(refused(claim)).toBe(true);
    const many = Object.fromEntries(Array.from({ length: MAX_GRANTS + 1 }, (_, i) => [`t${i}`, 'read']));
    expect(refused(many)).toBe(true);
  });
});

describe('sameGrants', () => {
  it('compares every tree and the level on all of them', () => {
    const of = (claim: Record<string, string>) => grantsFrom(claim);
    expect(sameGrants(of({ a: 'read', b: 'write' }), of({ b: 'write', a: 'read' }))).toBe(true);
    expect(sameGrants(ADMIN_ALL, grantsFrom(undefined))).toBe(true);
    expect(sameGrants(of({ a: 'read', b: 'write' }), of({ a: 'read' }))).toBe(false);
    expect(sameGrants(of({ a: 'read' }), of({ a: 'write' }))).toBe(false);
    expect(sameGrants(of({ a: 'read' }), of({ b: 'read' }))).toBe(false);
    expect(sameGrants(of({ a: 'read', '*': 'read' }), of({ a: 'read' }))).toBe(false);
  });
});
