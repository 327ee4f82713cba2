import { decodeListCursor, edgeWithCursor, type CursorCodec } from '../../cursor.js';
import type { NewestFirstPage } from '../../treeStore.js';
import type { ReadablePage } from './readablePage.js';

/**
 * The cursors of the lists kept newest first (history, deleted subtrees): the list's fields
 * (`t`, its tag, and its owner) and `s`, the position the next page starts after. Sealed by the
 * tenant's codec, so a position names nothing the caller can read (a change of a tree it may
 * not read, a deletion passed over).
 */

/** The position a cursor of `list` names; BAD_USER_INPUT `message` (field `after`) for any other cursor. */
export function positionIn(
  cursors: CursorCodec,
  raw: string,
  list: Readonly<Record<string, string>>,
  validPosition: (s: unknown) => boolean,
  message: string,
): string {
  const payload = decodeListCursor(
    cursors,
    raw,
    message,
    (p) => Object.entries(list).every(([field, value]) => p[field] === value) && validPosition(p.s),
  );
  return payload.s as string;
}

/** Pure. A page's edges and end, each cursor naming `list` and a position in it. */
export function withCursors<T>(
  cursors: CursorCodec,
  list: Readonly<Record<string, string>>,
  page: ReadablePage<T>,
): NewestFirstPage<T> {
  return {
    edges: page.entries.map(({ value, after }) => edgeWithCursor(cursors, { ...list, s: after }, value)),
    hasNextPage: page.hasNextPage,
    endCursor: page.end === undefined ? null : cursors.encode({ ...list, s: page.end }),
  };
}
