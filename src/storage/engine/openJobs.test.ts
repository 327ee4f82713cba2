import { describe, expect, it } from 'vitest';
import { moveOf, openEntriesOf, openEntryValue, openJobsOf, overlappingMove, settledPath, type OpenJobs } from './openJobs.js';

describe('open jobs', () => {
  it('reads the list of open jobs, a move with its places', () => {
    expect(openJobsOf(undefined)).toEqual({ rev: 0, closedAt: 0, deleting: new Set(), moves: [], count: 0 });
    const move = { kind: 'MOVE' as const, nodeId: 'x', from: ['r', 'a'], to: ['s'] };
    const item = { pk: 'JOBS', sk: 'OPEN', rev: 4, 'job:j1': { kind: 'DELETE', nodeId: 'big' }, 'job:j2': openEntryValue({ id: 'j2', ...move }) };
    expect(openEntriesOf(item)).toEqual([
      { id: 'j1', kind: 'DELETE', nodeId: 'big' },
      { id: 'j2', ...move },
    ]);
    expect(openJobsOf(item)).toEqual({
      rev: 4,
      closedAt: 0,
      deleting: new Set(['big']),
      moves: [{ id: 'j2', nodeId: 'x', from: ['r', 'a'], to: ['s'] }],
      count: 2,
    });
  });

  const open: OpenJobs = { rev: 1, closedAt: 0, deleting: new Set(), moves: [{ id: 'j', nodeId: 'x', from: ['r', 'a'], to: ['s', 'b'] }], count: 1 };

  it('settles the path of the moved node and of its subtree, whether the job rewrote it yet or not', () => {
    expect(settledPath(open, 'x', ['r', 'a'])).toEqual(['s', 'b']);
    expect(settledPath(open, 'x', ['s', 'b'])).toEqual(['s', 'b']);
    expect(settledPath(open, 'y', ['r', 'a', 'x', 'c'])).toEqual(['s', 'b', 'x', 'c']);
    expect(settledPath(open, 'y', ['s', 'b', 'x', 'c'])).toEqual(['s', 'b', 'x', 'c']);
  });

  it('leaves alone a path that is neither the old nor the new place (written after the job)', () => {
    expect(settledPath(open, 'x', ['q'])).toEqual(['q']);
    expect(settledPath(open, 'y', ['q', 'x'])).toEqual(['q', 'x']);
  });

  it('leaves every other path alone', () => {
    expect(settledPath(open, 'a', ['r'])).toEqual(['r']);
    expect(settledPath(open, 'z', ['s', 'b'])).toEqual(['s', 'b']);
    expect(moveOf(open, 'a', ['r'])).toBeUndefined();
  });

  it('finds the move a structural write overlaps: inside the moving subtree, or above its new place', () => {
    expect(overlappingMove(open, 'x', ['s', 'b'])?.id).toBe('j');
    expect(overlappingMove(open, 'c', ['s', 'b', 'x'])?.id).toBe('j');
    expect(overlappingMove(open, 'b', ['s'])?.id).toBe('j');
    expect(overlappingMove(open, 's', [])?.id).toBe('j');
    // Its old place: the subtree has left it already.
    expect(overlappingMove(open, 'a', ['r'])).toBeUndefined();
    expect(overlappingMove(open, 'r', [])).toBeUndefined();
  });
});
