import { generateKeyBetween } from 'fractional-indexing';

/**
 * Sibling order keys (fractional indexing): a key strictly between two neighbours, so an
 * insert or a move writes one item and never renumbers the siblings. null means "no
 * neighbour on that side". Keys are base62 strings that compare correctly as plain strings.
 *
 * Two writers placing a node in the same slot at the same time would compute the same key, and
 * siblings with equal keys cannot later be told apart by an insert between them. So each key
 * gets a random tail of JITTER_DIGITS digits (never ending in 0, which fractional indexing
 * forbids): two concurrent keys collide with a chance of 1 in 61^4.
 */
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const JITTER_DIGITS = 4;

export function positionBetween(
  before: string | null,
  after: string | null,
  random: () => number = Math.random,
): string {
  if (before !== null && after !== null && before >= after) {
    // Two siblings that share a position (concurrent inserts into one slot) are ordered by id;
    // a node placed between them takes their position and sorts by its id among them.
    return before;
  }
  let key = generateKeyBetween(before, after);
  // key + tail passes `after` only when key is a prefix of it; a key closer to `before` then
  // leaves room for the tail.
  for (let attempt = 0; attempt < 4; attempt++) {
    let tail = '';
    for (let i = 0; i < JITTER_DIGITS; i++) tail += DIGITS[1 + Math.floor(random() * (DIGITS.length - 1))];
    if (after === null || key + tail < after) return key + tail;
    key = generateKeyBetween(before, key);
  }
  return key;
}
