import { badInput, isTreeError } from '../errors.js';
import type { CursorCodec } from './cursor.js';

/**
 * Where a treeChanges subscriber stands: after number `seq` of the change log of the tree of
 * `rootId`, save the numbers in `skip` (above `seq`, committed before the subscription began:
 * not for it). `at`: when that position was reached (a cursor older than the retention is
 * refused: its changes may be gone). `watch`: the watched node and its ancestors' ids (root
 * first) at that position, so that a resume follows the node from there as the subscription
 * did, into another tree included; absent, the node is watched from where it is now.
 */
export interface ChangeCursor {
  rootId: string;
  seq: number;
  at: number;
  skip: readonly number[];
  watch?: { nodeId: string; path: readonly string[] };
}

/** The signed codec of the cursors of treeChanges (the tenant's: one of another tenant is refused). */
export interface ChangeCursors {
  encode(cursor: ChangeCursor): string;
  /** BAD_USER_INPUT for anything but a cursor `encode` made with the same secret and tenant. */
  decode(raw: string): ChangeCursor;
}

/** Pure. The change cursors of a tenant, signed with its cursor codec (storage/cursor.ts). */
export function changeCursors(cursors: CursorCodec): ChangeCursors {
  return {
    encode: ({ rootId, seq, at, skip, watch }) =>
      cursors.encode({
        t: 'c',
        r: rootId,
        s: seq,
        a: at,
        ...(skip.length > 0 ? { k: skip } : {}),
        ...(watch ? { n: watch.nodeId, p: watch.path } : {}),
      }),
    decode(raw) {
      const invalid = badInput('after is not a cursor of treeChanges', { field: 'after' });
      let c: Record<string, unknown>;
      try {
        c = cursors.decode(raw);
      } catch (error) {
        throw isTreeError(error, 'BAD_USER_INPUT') ? invalid : error;
      }
      const { r, s, a, k = [], n, p } = c;
      const seqs = (value: unknown): value is number[] =>
        Array.isArray(value) && value.every((x) => Number.isSafeInteger(x) && (x as number) > (s as number));
      const ids = (value: unknown): value is string[] =>
        Array.isArray(value) && value.every((x) => typeof x === 'string');
      const valid =
        c.t === 'c' &&
        typeof r === 'string' &&
        Number.isSafeInteger(s) &&
        (s as number) >= 0 &&
        Number.isSafeInteger(a) &&
        seqs(k) &&
        (n === undefined || (typeof n === 'string' && ids(p) && (p[0] ?? n) === r));
      if (!valid) throw invalid;
      return {
        rootId: r,
        seq: s as number,
        at: a as number,
        skip: k,
        ...(typeof n === 'string' ? { watch: { nodeId: n, path: p as string[] } } : {}),
      };
    },
  };
}
