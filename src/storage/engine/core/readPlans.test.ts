import { describe, expect, it } from 'vitest';
import { adjacentQuery, childrenQuery, openJobsQuery } from './readPlans.js';

describe('the truth read plans', () => {
  it('reads a parent collection of edges, or the roots, optionally after an edge', () => {
    expect(childrenQuery('p')).toEqual({ pk: 'N#p', sk: { beginsWith: 'E#' } });
    expect(childrenQuery(null, 'E#a0#r')).toEqual({ pk: 'ROOTS', sk: { beginsWith: 'E#' }, after: 'E#a0#r' });
  });

  it('reads the siblings before or after an edge, or from the last child', () => {
    expect(adjacentQuery('p', 'E#a1#x', 'before')).toEqual({
      pk: 'N#p',
      sk: { between: ['E#', 'E#a1#x'] },
      backwards: true,
    });
    expect(adjacentQuery('p', 'E#a1#x', 'after')).toEqual({
      pk: 'N#p',
      sk: { between: ['E#a1#x', 'E$'] },
      backwards: false,
    });
    expect(adjacentQuery(null, null, 'before')).toEqual({ pk: 'ROOTS', sk: { beginsWith: 'E#' }, backwards: true });
  });

  it('reads the open jobs from their collection', () => {
    expect(openJobsQuery()).toEqual({ pk: 'JOBS' });
  });
});
