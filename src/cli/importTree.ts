import { isTreeError } from '../errors.js';
import type { TreeNode, TreeStore } from '../storage/treeStore.js';
import { ImportProblems, inParentOrder, type ImportRecord } from './importRecords.js';
import { inParallel } from './inParallel.js';

export interface ImportOptions {
  /** MAX_TREE_DEPTH: a record that would lie deeper is a problem of the file. */
  maxTreeDepth: number;
  /** Parents whose children are created at the same time (each parent's children in order). */
  concurrency?: number;
  /** Told of each record done (created, or found already imported). */
  onRecord?: () => void;
}

export interface ImportResult {
  created: number;
  /** Records whose node already exists under the same parent: imported by an earlier run. */
  skipped: number;
}

/** How many ids one read of the table checks at a time. */
const READ_CHUNK = 5000;

/**
 * Imports records (importRecords.ts) into the store. First it checks them against the table,
 * writing nothing if any fails: every parent the file names but does not hold exists, no record
 * would lie deeper than MAX_TREE_DEPTH, and no id is taken by a node elsewhere (an id taken by a
 * node under the same parent is a record imported already, skipped). Then it creates the nodes
 * through the store's own creates, so that every one is a complete, consistent node the moment it
 * exists, under every strategy: level by level, the children of `concurrency` parents at a time,
 * each parent's children one after the other in their order (their positions when given, else the
 * file's). Interrupted, it is resumed by running it again: what exists is skipped, and each
 * parent's children created so far are the first of them, so the rest is appended in order.
 */
export async function importTree(store: TreeStore, records: readonly ImportRecord[], options: ImportOptions): Promise<ImportResult> {
  const inFile = new Map(records.map((r) => [r.id, r]));
  const existing = await readAll(store, records.map((r) => r.id));
  const outsideIds = [...new Set(records.flatMap((r) => (r.parentId !== null && !inFile.has(r.parentId) ? [r.parentId] : [])))];
  const outside = await readAll(store, outsideIds);
  const outsideDepth = new Map<string, number>();
  const found = [...outside.values()];
  const chains = found.length > 0 ? await store.ancestors(found, async (ids) => [...(await readAll(store, ids)).values()]) : [];
  found.forEach((node, i) => outsideDepth.set(node.id, node.depth ?? chains[i]!.length));

  const problems: string[] = [];
  const ordered = inParentOrder(records);
  for (const { record } of ordered) {
    const there = existing.get(record.id);
    if (there && there.parentId !== record.parentId) {
      problems.push(`${record.at}: id "${record.id}" is taken by a node ${there.parentId === null ? 'that is a root' : `under "${there.parentId}"`}`);
    }
    if (record.parentId !== null && !inFile.has(record.parentId) && !outside.has(record.parentId)) {
      problems.push(`${record.at}: parent "${record.parentId}" is neither in the file nor in the table`);
    }
  }
  // A top record (its parent outside the file, or none) lies one below its parent in the table.
  const tops = new Map(ordered.filter((o) => o.depth === 0).map(({ record }) => [record.id, record.parentId === null ? 0 : (outsideDepth.get(record.parentId) ?? 0) + 1]));
  const topOf = topsOf(inFile, ordered);
  for (const { record, depth } of ordered) {
    const absolute = (tops.get(topOf.get(record.id)!) ?? 0) + depth;
    if (absolute > options.maxTreeDepth) {
      problems.push(`${record.at}: "${record.id}" would lie at depth ${absolute}, past MAX_TREE_DEPTH (${options.maxTreeDepth})`);
    }
  }
  if (problems.length > 0) throw new ImportProblems(problems);

  const result: ImportResult = { created: 0, skipped: 0 };
  const levels = new Map<number, ImportRecord[]>();
  for (const { record, depth } of ordered) levels.set(depth, [...(levels.get(depth) ?? []), record]);
  for (const level of [...levels.keys()].sort((a, b) => a - b)) {
    const byParent = new Map<string | null, ImportRecord[]>();
    for (const record of levels.get(level)!) byParent.set(record.parentId, [...(byParent.get(record.parentId) ?? []), record]);
    const groups = [...byParent.values()].map((siblings) => inSiblingOrder(siblings));
    await inParallel(groups, options.concurrency ?? 16, async (siblings) => {
      for (const record of siblings) {
        if (existing.has(record.id)) result.skipped++;
        else if (await create(store, record)) result.created++;
        else result.skipped++;
        options.onRecord?.();
      }
    });
  }
  return result;
}

/** Creates one node (appended after its siblings); false when an earlier or concurrent run did. */
async function create(store: TreeStore, record: ImportRecord): Promise<boolean> {
  try {
    await store.createNode({ id: record.id, parentId: record.parentId, name: record.name, data: record.data });
    return true;
  } catch (error) {
    if (isTreeError(error, 'ALREADY_EXISTS')) return false;
    throw error;
  }
}

/** Siblings by their given positions (an export's), else in the file's order (a stable sort). */
const inSiblingOrder = (siblings: ImportRecord[]): ImportRecord[] =>
  siblings.every((s) => s.position !== null) ? [...siblings].sort((a, b) => (a.position! < b.position! ? -1 : a.position! > b.position! ? 1 : 0)) : siblings;

/** Each record's top record (itself, or its ancestor in the file whose parent is not in it), parents first. */
function topsOf(inFile: Map<string, ImportRecord>, ordered: ReadonlyArray<{ record: ImportRecord; depth: number }>): Map<string, string> {
  const top = new Map<string, string>();
  for (const { record } of ordered) {
    const parent = record.parentId === null ? undefined : inFile.get(record.parentId);
    top.set(record.id, parent ? top.get(parent.id)! : record.id);
  }
  return top;
}

/** Live nodes by id, read a chunk at a time. */
async function readAll(store: TreeStore, ids: readonly string[]): Promise<Map<string, TreeNode>> {
  const found = new Map<string, TreeNode>();
  for (let i = 0; i < ids.length; i += READ_CHUNK) {
    for (const [id, node] of await store.getNodes(ids.slice(i, i + READ_CHUNK))) found.set(id, node);
  }
  return found;
}
