import { describe, expect, it } from 'vitest';
import { plan } from '../../../../test/support/transactionSteps.js';
import { storedNode, testNode } from '../../../../test/support/nodes.js';
import { otherClaim, planClaimNode, planNodeUnclaimed, planParentUnclaimed, planReleaseNode } from './claims.js';

const p = storedNode(testNode('p', 'r'), 4);

describe('claims', () => {
  it('are taken on a node as it was read (its rev: no child added, nothing renamed), claimed by no other job', () => {
    expect(plan((tx) => planClaimNode(tx, p, 'j')).steps).toEqual([
      {
        kind: 'Update',
        key: 'N#p NODE',
        update: 'SET claim = "j"',
        condition:
          'attribute_exists(pk) AND rev = 4 AND (attribute_not_exists(claim) OR claim = "j") ' +
          'AND (attribute_not_exists(deleting) OR deleting = "j")',
      },
    ]);
  });

  it('are given back only by the job that holds them', () => {
    expect(plan((tx) => planReleaseNode(tx, 'p', 'j')).steps).toEqual([
      { kind: 'Update', key: 'N#p NODE', update: 'REMOVE claim', condition: 'claim = "j"' },
    ]);
  });

  it('keep writes off claimed nodes, naming nothing but the nodes themselves', () => {
    expect(plan((tx) => planParentUnclaimed(tx, p)).steps).toEqual([
      { kind: 'ConditionCheck', key: 'N#p NODE', condition: 'attribute_not_exists(claim)' },
    ]);
    // Under the roots, nothing to name.
    expect(plan((tx) => planParentUnclaimed(tx, null)).steps).toEqual([]);
    expect(plan((tx) => planNodeUnclaimed(tx, [p], 'j')).steps).toEqual([
      { kind: 'ConditionCheck', key: 'N#p NODE', condition: 'claim = "j"' },
    ]);
  });

  it("tell a write of another job's claim, not of its own", () => {
    const claimed = { ...p, claim: 'j' };
    expect([otherClaim(claimed), otherClaim(claimed, 'j'), otherClaim(p), otherClaim(null)]).toEqual([
      'j',
      undefined,
      undefined,
      undefined,
    ]);
  });
});
