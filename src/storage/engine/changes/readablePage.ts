/**
 * One read of a list kept newest first (a node's history, the deleted subtrees): what it found,
 * each entry with its position, how many items it read (entries passed over included: a stale
 * deleted entry), the position of the last of them, and whether the list may go on after it.
 */
export interface ListRead<T> {
  entries: Array<{ value: T; after: string }>;
  read: number;
  last: string | undefined;
  more: boolean;
}

/** A page of a list: its entries, whether more follow, and the position the next page starts after. */
export interface ReadablePage<T> {
  entries: Array<{ value: T; after: string }>;
  hasNextPage: boolean;
  end: string | undefined;
}

/** Entries a caller may not see that one page passes over at most before it ends early. */
export const PASSED_OVER_LIMIT = 1000;
/** Items each read after the first asks for at least, so that a long run of hidden entries takes few reads. */
const READ_SIZE = 100;
/** Reads of one page at most: enough for PASSED_OVER_LIMIT and a page of 1,000 at READ_SIZE a read. */
const MAX_READS = 25;

/**
 * The page of `first` entries after position `start` that the caller may see (`shown`), read
 * with `read` until `first + 1` of them are found or the list ends: the entries it may not see
 * are passed over before the page and `hasNextPage` are decided, so neither tells anything of
 * them. The first read asks for `first + 1` (everything shown: one read, as without the filter).
 * Bounded: past PASSED_OVER_LIMIT entries passed over (or MAX_READS reads), the page ends early
 * with `hasNextPage` true and `end` after the last item read, so the next page goes on from there.
 */
export async function readablePage<T>(
  first: number,
  start: string | undefined,
  read: (after: string | undefined, limit: number) => Promise<ListRead<T>>,
  shown: (value: T) => boolean,
): Promise<ReadablePage<T>> {
  const kept: ReadablePage<T>['entries'] = [];
  let position = start;
  let passed = 0;
  for (let reads = 0; reads < MAX_READS && passed < PASSED_OVER_LIMIT; reads++) {
    const need = first + 1 - kept.length;
    const batch = await read(position, reads === 0 ? need : Math.max(need, READ_SIZE));
    const shownNow = batch.entries.filter((e) => shown(e.value));
    kept.push(...shownNow);
    if (kept.length > first) return { entries: kept.slice(0, first), hasNextPage: true, end: kept[first - 1]!.after };
    if (!batch.more || batch.last === undefined) return { entries: kept, hasNextPage: false, end: kept.at(-1)?.after };
    passed += batch.read - shownNow.length;
    position = batch.last;
  }
  return { entries: kept, hasNextPage: true, end: position };
}
