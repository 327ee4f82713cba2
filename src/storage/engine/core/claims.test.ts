import { describe, expect, it } from 'vitest';
import { plan } from '../../../../test/support/transactionSteps.js';
import { claimOf, planChainUnclaimed, planNodeUnclaimed } from './claims.js';

describe('claims', () => {
  it('are what a move job, a joined import or a delete job holds, and nothing else', () => {
    const move = { id: 'j', kind: 'MOVE' as const, nodeId: 'm', from: ['r'], to: ['s', 't'] };
    expect(claimOf(move)).toEqual({ jobId: 'j', nodeId: 'm', from: ['r'], to: ['s', 't'], below: true });
    // A delete's subtree has left its tree: nothing lies below its ancestors.
    expect(claimOf({ id: 'd', kind: 'DELETE', nodeId: 'x', from: ['r'] })).toEqual({
      jobId: 'd',
      nodeId: 'x',
      from: ['r'],
      to: ['r'],
      below: false,
    });
    expect(claimOf({ id: 'd', kind: 'DELETE', nodeId: 'x' })).toBeUndefined();
    expect(claimOf({ id: 'i', kind: 'IMPORT', nodeId: 'p' })).toBeUndefined();
  });

  it('keep a moved or deleted node out of a claimed subtree, and off a claimed one below it', () => {
    const steps = plan((tx) => planNodeUnclaimed(tx, 'x', ['r', 'p'])).steps;
    expect(steps).toEqual([
      {
        kind: 'ConditionCheck',
        key: 'C#r CLAIMS',
        condition:
          'attribute_not_exists(claim:r) AND attribute_not_exists(claim:p) AND attribute_not_exists(claim:x) ' +
          'AND attribute_not_exists(below:x)',
      },
    ]);
    // A root's claims are its own tree's.
    expect(plan((tx) => planNodeUnclaimed(tx, 'r', [])).steps[0]?.key).toBe('C#r CLAIMS');
  });

  it('ask nothing of a write under the roots', () => {
    expect(plan((tx) => planChainUnclaimed(tx, [])).steps).toEqual([]);
  });
});
