import type { Item } from './keys.js';

/**
 * Pure. The size DynamoDB gives an item, by its documented rule, rounded up where the rule is
 * approximate: attribute names and strings in UTF-8 bytes (a character outside the Basic
 * Multilingual Plane, an emoji, is 4 bytes and 2 UTF-16 units), a number 1 byte per two
 * significant digits plus 1, null and booleans 1, a list or map 3 bytes plus 1 per element (and
 * a map's keys as names). Attributes left undefined are not stored (the client removes them).
 *
 * The limits it serves count these bytes: 400 KB an item, 4 MB the items of one transaction.
 */
/** DynamoDB's limit of an item: 400 KB. */
export const MAX_ITEM_BYTES = 400 * 1024;

/**
 * What Canopy puts in one transaction at most: DynamoDB refuses one whose items pass 4 MB
 * (4,194,304 bytes). The rest is left to what this count does not see: conditions, the
 * placeholders' values, a small fenced update of an item that is itself large.
 */
export const TRANSACTION_BYTES = 3_500_000;

export function itemSize(item: Item): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    if (value !== undefined) size += Buffer.byteLength(name) + valueSize(value);
  }
  return size;
}

/** The size of one attribute value (a stack instead of recursion: data nests up to 31 levels). */
export function valueSize(value: unknown): number {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') size += Buffer.byteLength(next);
    else if (typeof next === 'number' || typeof next === 'bigint') size += numberSize(next);
    else if (next === null || typeof next === 'boolean') size += 1;
    else if (next instanceof Uint8Array) size += next.byteLength;
    else if (next instanceof Set) for (const member of next as Set<unknown>) pending.push(member);
    else if (Array.isArray(next)) {
      size += 3 + next.length;
      for (const member of next) pending.push(member ?? null);
    } else if (typeof next === 'object') {
      const entries = Object.entries(next).filter(([, member]) => member !== undefined);
      size += 3 + entries.length;
      for (const [key, member] of entries) {
        size += Buffer.byteLength(key);
        pending.push(member);
      }
    }
  }
  return size;
}

/** 1 byte per two significant digits, plus 1 (and 1 for the sign: the rule's "about"). */
function numberSize(n: number | bigint): number {
  const digits = String(n)
    .replace(/^-/, '')
    .replace(/e.*$/i, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 2;
}
