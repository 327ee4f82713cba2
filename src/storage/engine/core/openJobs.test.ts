import { describe, expect, it } from 'vitest';
import {
  moveOf,
  openEntriesOf,
  openEntryValue,
  openJobsOf,
  overlappingMove,
  settledPath,
  type OpenJobs,
} from './openJobs.js';

describe('open jobs', () => {
  it('reads the list of open jobs, a move with its places', () => {
    expect(openJobsOf(undefined)).toEqual({
      rev: 0,
      epoch: 0,
      closedAt: 0,
      deleting: new Set(),
      moves: [],
      importing: new Set(),
      count: 0,
    });
    const move = { kind: 'MOVE' as const, nodeId: 'x', from: ['r', 'a'], to: ['s'] };
    const item = {
      pk: 'JOBS',
      sk: 'OPEN',
      rev: 4,
      epoch: 2,
      'job:j1': { kind: 'DELETE', nodeId: 'big' },
      'job:j2': openEntryValue({ id: 'j2', ...move }),
    };
    expect(openEntriesOf(item)).toEqual([
      { id: 'j1', kind: 'DELETE', nodeId: 'big' },
      { id: 'j2', ...move },
    ]);
    expect(openJobsOf(item)).toEqual({
      rev: 4,
      epoch: 2,
      closedAt: 0,
      deleting: new Set(['big']),
      moves: [{ id: 'j2', nodeId: 'x', from: ['r', 'a'], to: ['s'] }],
      importing: new Set(),
      count: 2,
    });
  });

  it('hides the nodes of an import until they join the tree, then reads below its parent as below a move', () => {
    const item = {
      pk: 'JOBS',
      sk: 'OPEN',
      rev: 1,
      'job:i1': openEntryValue({ id: 'i1', kind: 'IMPORT', nodeId: 'p' }),
      'job:i2': openEntryValue({ id: 'i2', kind: 'IMPORT', nodeId: 'q', from: ['r'], to: ['r'] }),
    };
    const open = openJobsOf(item);
    expect(open.importing).toEqual(new Set(['i1']));
    expect(open.moves).toEqual([{ id: 'i2', nodeId: 'q', from: ['r'], to: ['r'] }]);
    expect(settledPath(open, 'n', ['r', 'q', 'm'])).toEqual(['r', 'q', 'm']);
    expect(moveOf(open, 'n', ['r', 'q'])?.id).toBe('i2');
  });

  const open: OpenJobs = {
    rev: 1,
    epoch: 0,
    closedAt: 0,
    deleting: new Set(),
    moves: [{ id: 'j', nodeId: 'x', from: ['r', 'a'], to: ['s', 'b'] }],
    importing: new Set(),
    count: 1,
  };

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
