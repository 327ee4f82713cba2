/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import type { ContractCosts } from '../contractCosts.js';
import { keptFields } from '../engine/core/projectionPlans.js';
import { STRATEGIES, STRATEGY_NAMES } from './strategies.js';

const PLACE = { path: ['r', 'p'], lineage: ['a0', 'a1', 'a2'], keys: ['p-key', 'own-key'] };

describe('the strategies list', () => {
  it('names each strategy once', () => {
    expect(new Set(STRATEGY_NAMES).size).toBe(STRATEGIES.length);
  });

  it("declares, in each strategy folder, what the contract suite's operations cost there", () => {
    const declared = import.meta.glob<{ contractCosts: ContractCosts }>('./*/contractCosts.ts', { eager: true });
    expect(
      Object.values(declared)
        .map((module) => module.contractCosts.strategy)
        .sort(),
    ).toEqual([...STRATEGY_NAMES].sort());
  });

  it.each(STRATEGIES.map((s) => [s.name, s] as const))('%s keeps on node items what it declares', (_name, strategy) => {
    const kept = keptFields(strategy);
    const fields = strategy.nodeFields(PLACE);
    const has = {
      path: fields.path !== undefined,
      lineage: fields.lineage !== undefined,
      keys: fields.keys !== undefined,
    };
    expect(has).toEqual(kept);
    if (kept.path) expect(fields.path).toEqual(PLACE.path);
    if (kept.lineage) expect(fields.lineage).toEqual(PLACE.lineage);
    if (kept.keys) expect(fields.keys).toEqual(PLACE.keys);
    // Only a strategy that keeps a place has projection items to rewrite in a move job.
    if (!kept.path) expect(strategy.itemsFor('n', PLACE)).toEqual([]);
  });

  it.each(STRATEGIES.map((s) => [s.name, s] as const))(
    '%s keys its items with the prefixes it declares',
    (_name, strategy) => {
      const { pk, sk } = strategy.keyPrefixes;
      for (const item of strategy.itemsFor('n', PLACE)) {
        expect(strategy.owns(item)).toBe(true);
        expect(pk.some((p) => item.pk.startsWith(p)) || sk.some((p) => item.sk.startsWith(p))).toBe(true);
      }
    },
  );
});
