import { generateKeyBetween } from 'fractional-indexing';

/**
 * Sibling order keys (fractional indexing): a key strictly between two neighbours, so an
 * insert or a move writes one item and never renumbers the siblings. null means "no
 * neighbour on that side". Keys are base62 strings that compare correctly as plain strings.
 */
export function positionBetween(before: string | null, after: string | null): string {
  if (before !== null && after !== null && before >= after) {
    // Two siblings that share a position (concurrent inserts into one slot) are ordered by id;
    // a node placed between them takes their position and sorts by its id among them.
    return before;
  }
  return generateKeyBetween(before, after);
}
