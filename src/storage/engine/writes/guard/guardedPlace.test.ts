import { describe, expect, it } from 'vitest';
import { plan } from '../../../../../test/support/transactionSteps.js';
import { storedNode, testNode } from '../../../../../test/support/nodes.js';
import { adjacency } from '../../../strategies/adjacency/adjacency.js';
import { path } from '../../../strategies/path/path.js';
import { GuardedPlace, planPlaceGuards } from './guardedPlace.js';
import { planCreate, NO_COPIES } from '../../core/writePlans.js';

const node = testNode;
const stored = storedNode;

// r ── p: the chain of a new child of p.
const r = stored(node('r', null, { childCount: 1, path: [] }), 2);
const p = stored(node('p', 'r', { path: ['r'] }), 4);
const child = node('c', 'p');

describe('a place under a parent', () => {
  it('guards every commit: the chain, the parent unclaimed and not being respaced, nothing of the tenant', () => {
    const steps = plan((tx) => {
      planCreate(tx, { node: child, chain: [r, p], slot: { position: 'a0', neighbours: [] }, copies: NO_COPIES });
      planPlaceGuards(tx, { strategy: adjacency, chain: [r, p], now: 1000 });
    }).steps;
    const conditions = Object.fromEntries(steps.map((s) => [s.key, s.condition]));
    // adjacency: each node of the chain still where it was read, alive, not held.
    expect(conditions['N#r NODE']).toBe(
      'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(parentId) ' +
        'AND (attribute_not_exists(hold) OR hold < 1000)',
    );
    expect(conditions['N#p NODE']).toContain('parentId = "r"');
    // The parent, whose childCount the create updates, is not being respaced.
    expect(conditions['N#p NODE']).toContain('(attribute_not_exists(respacing) OR respacing < 1000)');
    // The parent claimed by no job (claims.ts).
    expect(conditions['N#p NODE']).toContain('attribute_not_exists(claim)');
    // No item outside the place and its chain.
    expect(Object.keys(conditions).sort()).toEqual(['N#c NODE', 'N#p E#a0#c', 'N#p NODE', 'N#r E#a0#p', 'N#r NODE']);
  });

  it("passes a respacing's own hold and renews it", () => {
    const steps = plan((tx) =>
      planPlaceGuards(tx, { strategy: path, chain: [r, p], respacing: { until: 5000, renewed: 9000 }, now: 1000 }),
    ).steps;
    const parent = steps.find((s) => s.key === 'N#p NODE')!;
    expect(parent.update).toBe('SET respacing = 9000');
    expect(parent.condition).toContain('(attribute_not_exists(respacing) OR respacing < 5001)');
    expect(parent.condition).toContain('respacing = 5000');
  });

  it('names the parent and nothing above it under a strategy that keeps paths', () => {
    const steps = plan((tx) => planPlaceGuards(tx, { strategy: path, chain: [r, p], now: 1000 })).steps;
    // The parent still keeps the path read, and no job claims it (claims.ts): a move job above
    // it claims it before it starts, so a write that read its path before fails here.
    expect(steps.map((s) => s.key)).toEqual(['N#p NODE']);
    expect(steps[0]!.condition).toContain('path = ["r"]');
    expect(steps[0]!.condition).toContain('attribute_not_exists(claim)');
  });

  it('is only read, never built from parts', () => {
    // @ts-expect-error a place is only read (GuardedPlace.read): its guards come from what it read.
    const built = () => new GuardedPlace();
    expect(typeof built).toBe('function');
  });
});
