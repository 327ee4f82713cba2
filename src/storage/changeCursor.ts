import { badInput, isTreeError } from '../errors.js';
import type { CursorCodec } from './cursor.js';
import type { ChangeCursors } from './treeStore.js';

/** Pure. The change cursors of a tenant, signed with its cursor codec (storage/cursor.ts). */
export function changeCursors(cursors: CursorCodec): ChangeCursors {
  return {
    encode: ({ rootId, seq, at, skip, watch }) =>
      cursors.encode({
        t: 'ch',
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
        c.t === 'ch' &&
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
