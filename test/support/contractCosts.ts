/// <reference types="vite/client" />
import type { ContractCosts } from '../../src/storage/contractCosts.js';
import type { StrategyName } from '../../src/storage/strategies/strategies.js';

/** Every strategy folder's declared costs, found by their file name: no list of strategies here. */
const DECLARED = import.meta.glob<{ contractCosts: ContractCosts }>('../../src/storage/strategies/*/contractCosts.ts', {
  eager: true,
});

/** What the contract suite's operations cost under `name`, as its folder declares. */
export function contractCostsOf(name: StrategyName): ContractCosts {
  const found = Object.values(DECLARED).find((module) => module.contractCosts.strategy === name);
  if (!found) throw new Error(`strategy "${name}" declares no contract costs: add contractCosts.ts to its folder`);
  return found.contractCosts;
}
