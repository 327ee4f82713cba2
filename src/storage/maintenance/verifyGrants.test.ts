import { describe, expect, it } from 'vitest';
import { grantProblems } from './verifyGrants.js';

const grant = (nodeId: string, principal: string, level: string) => ({
  pk: `N#${nodeId}`,
  sk: `G#${principal}`,
  nodeId,
  principal,
  level,
  grantedBy: null,
  at: 'x',
});

describe('grantProblems', () => {
  it('takes grants kept in both items, and on nodes that are gone', () => {
    const items = [
      grant('a', 'sub:ana', 'write'),
      grant('gone', 'sub:ana', 'read'),
      { pk: 'P#sub:ana', sk: 'GRANTS', n: 2, 'g:a': 'write', 'g:gone': 'read' },
      { pk: 'P#sub:bob', sk: 'GRANTS', n: 0 },
    ];
    expect(grantProblems(items)).toEqual([]);
  });

  it('names each half missing, a level that differs, and a wrong count', () => {
    const items = [
      grant('a', 'sub:ana', 'write'),
      grant('b', 'sub:ana', 'admin'),
      { pk: 'P#sub:ana', sk: 'GRANTS', n: 3, 'g:b': 'read', 'g:c': 'read' },
    ];
    expect(grantProblems(items)).toEqual([
      { nodeId: 'a', problem: "the grant of sub:ana (write) is not in its principal's item" },
      { nodeId: 'b', problem: "the grant of sub:ana (admin) is not in its principal's item" },
      { nodeId: 'b', problem: "sub:ana's item holds a grant (read) the node does not keep" },
      { nodeId: 'c', problem: "sub:ana's item holds a grant (read) the node does not keep" },
      { nodeId: '?', problem: "sub:ana's item counts 3 grants, holds 2" },
    ]);
  });
});
