import type { ImportRecord } from './importRecords.js';

/**
 * Pure. How an import packs its records into transactions: whole small subtrees, not only
 * siblings. A file whose sibling groups are small (a random tree: 1 to 4 children a node) packed
 * by siblings writes a few nodes per transaction; packed by subtrees, as many as one holds.
 */

/** The file's records by parent, each parent's children in sibling order; and each record's subtree size. */
export interface FileTree {
  childrenOf: ReadonlyMap<string | null, readonly ImportRecord[]>;
  /** The records in the subtree of each record, itself included. */
  sizeOf: ReadonlyMap<string, number>;
}

/** The FileTree of records listed parents first (inParentOrder), with their children by parent. */
export function fileTree(
  parentsFirst: readonly ImportRecord[],
  childrenOf: ReadonlyMap<string | null, readonly ImportRecord[]>,
): FileTree {
  const sizeOf = new Map<string, number>();
  for (let i = parentsFirst.length - 1; i >= 0; i--) {
    const record = parentsFirst[i]!;
    const below = (childrenOf.get(record.id) ?? []).reduce((sum, child) => sum + (sizeOf.get(child.id) ?? 1), 0);
    sizeOf.set(record.id, 1 + below);
  }
  return { childrenOf, sizeOf };
}

/** One transaction's records, and where the parent's list goes on after it. */
export interface Pack {
  /** Parents first: the top nodes (consecutive siblings) each followed by what of its subtree fits. */
  records: ImportRecord[];
  /** The index, in the siblings given, of the first one the pack leaves for the next. */
  next: number;
  /** The records of the pack some of whose children it leaves out: their children come later, after them. */
  cut: string[];
}

/**
 * The next pack of at most `budget` records (at least one) from `siblings[from]` on: whole
 * subtrees of consecutive siblings while they fit; when the first one does not fit whole, it and
 * as much of its subtree as fits, each node's children in order, down the first one that does
 * not fit whole.
 */
export function nextPack(tree: FileTree, siblings: readonly ImportRecord[], from: number, budget: number): Pack {
  const records: ImportRecord[] = [];
  const size = (record: ImportRecord) => tree.sizeOf.get(record.id) ?? 1;
  const whole = (record: ImportRecord) => {
    records.push(record);
    for (const child of tree.childrenOf.get(record.id) ?? []) whole(child);
  };
  let at = from;
  while (at < siblings.length && records.length + size(siblings[at]!) <= budget) whole(siblings[at++]!);
  if (records.length === 0 && at < siblings.length) {
    // Down the first sibling: each node, its children whole while they fit, then the next one down.
    let node: ImportRecord | undefined = siblings[at++];
    while (node) {
      records.push(node);
      let down: ImportRecord | undefined;
      for (const child of tree.childrenOf.get(node.id) ?? []) {
        if (records.length >= budget) break;
        if (records.length + size(child) <= budget) whole(child);
        else {
          down = child;
          break;
        }
      }
      node = down;
    }
  }
  const packed = new Set(records.map((r) => r.id));
  const cut = records
    .filter((r) => (tree.childrenOf.get(r.id) ?? []).some((child) => !packed.has(child.id)))
    .map((r) => r.id);
  return { records, next: at, cut };
}
