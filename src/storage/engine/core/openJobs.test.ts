import { describe, expect, it } from 'vitest';
import {
  moveOf,
  NO_OPEN_JOBS,
  openEntryOf,
  openJobsOf,
  overlappingMove,
  readAgain,
  settledPath,
  type OpenJobs,
} from './openJobs.js';

const entry = (id: string, fields: Record<string, unknown>) => ({ pk: 'JOBS', sk: `ENTRY#${id}`, ...fields });

describe('open jobs', () => {
  it('reads the open jobs from the summary and their entries, a move with its places', () => {
    expect(openJobsOf(undefined, [])).toEqual(NO_OPEN_JOBS);
    const move = { kind: 'MOVE' as const, nodeId: 'x', from: ['r', 'a'], to: ['s'] };
    const summary = { pk: 'JOBS', sk: 'OPEN', activeUntil: 900, projection: 'path' };
    const entries = [entry('j1', { kind: 'DELETE', nodeId: 'big', from: ['r'] }), entry('j2', move)];
    expect(openEntryOf(entries[1])).toEqual({ id: 'j2', ...move });
    expect(openEntryOf({ pk: 'JOBS', sk: 'JOB#j2' })).toBeUndefined();
    expect(openJobsOf(summary, entries)).toEqual({
      activeUntil: 900,
      projection: 'path',
      deleting: new Set(['big']),
      moves: [{ id: 'j2', nodeId: 'x', from: ['r', 'a'], to: ['s'] }],
      importing: new Set(),
      count: 2,
    });
  });

  it('hides the nodes of an import until they join the tree, then reads below its parent as below a move', () => {
    const open = openJobsOf(undefined, [
      entry('i1', { kind: 'IMPORT', nodeId: 'p' }),
      entry('i2', { kind: 'IMPORT', nodeId: 'q', from: ['r'], to: ['r'] }),
      entry('i3', { kind: 'IMPORT', nodeId: 'z', joined: true }),
    ]);
    expect(open.importing).toEqual(new Set(['i1']));
    expect(open.moves).toEqual([{ id: 'i2', nodeId: 'q', from: ['r'], to: ['r'] }]);
    expect(settledPath(open, 'n', ['r', 'q', 'm'])).toEqual(['r', 'q', 'm']);
    expect(moveOf(open, 'n', ['r', 'q'])?.id).toBe('i2');
  });

  it('reads again what a read spanning a job start or close may have met on both sides of it', () => {
    const now = 1_000_000;
    const inactive = { ...NO_OPEN_JOBS, activeUntil: 0 };
    // The summary met before a job announced itself, a node after its first transaction.
    expect(readAgain(inactive, now, 300)).toBe('everything');
    expect(readAgain(inactive, now, 100)).toBeUndefined();
    // While jobs run: a node met before a job's last chunk, the entries after it closed.
    const active = { ...NO_OPEN_JOBS, activeUntil: now + 10_000 };
    expect(readAgain(active, now, 150)).toBe('nodes');
    expect(readAgain(active, now, 50)).toBeUndefined();
  });

  const open: OpenJobs = {
    ...NO_OPEN_JOBS,
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
