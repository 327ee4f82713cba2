import { backoffDelay, sleep } from '../dynamodb/backoff.js';
import { isTreeError } from '../errors.js';
import { TooManyItems, type TreeNode, type TreeStore } from '../storage/treeStore.js';
import { ImportProblems, inParentOrder, type ImportRecord } from './importRecords.js';
import { inParallel } from '../inParallel.js';

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
 * through the store's own createNodes, so that every one is a complete, consistent node the
 * moment it exists, under every strategy: level by level, the children of `concurrency` parents
 * at a time, each parent's children in their order (their positions when given, else the
 * file's), in batches of siblings that one transaction holds (FIRST_BATCH at first, halved for
 * the rest of the level whenever the store says one transaction cannot hold them), each batch
 * tried again with backoff while DynamoDB throttles. Interrupted, it is resumed by running it
 * again: what exists is skipped, and each parent's children created so far are the first of
 * them (a batch is all or nothing), so the rest is appended in order.
 */
export async function importTree(
  store: TreeStore,
  records: readonly ImportRecord[],
  options: ImportOptions,
): Promise<ImportResult> {
  const inFile = new Map(records.map((r) => [r.id, r]));
  const existing = await readAll(
    store,
    records.map((r) => r.id),
  );
  const outsideIds = [
    ...new Set(records.flatMap((r) => (r.parentId !== null && !inFile.has(r.parentId) ? [r.parentId] : []))),
  ];
  const outside = await readAll(store, outsideIds);
  const outsideDepth = new Map<string, number>();
  const found = [...outside.values()];
  const chains =
    found.length > 0 ? await store.ancestors(found, async (ids) => [...(await readAll(store, ids)).values()]) : [];
  found.forEach((node, i) => outsideDepth.set(node.id, node.depth ?? chains[i]!.length));

  const problems: string[] = [];
  const ordered = inParentOrder(records);
  for (const { record } of ordered) {
    const there = existing.get(record.id);
    if (there && there.parentId !== record.parentId) {
      const where = there.parentId === null ? 'that is a root' : `under "${there.parentId}"`;
      problems.push(`${record.at}: id "${record.id}" is taken by a node ${where}`);
    }
    if (record.parentId !== null && !inFile.has(record.parentId) && !outside.has(record.parentId)) {
      problems.push(`${record.at}: parent "${record.parentId}" is neither in the file nor in the table`);
    }
  }
  // A top record (its parent outside the file, or none) lies one below its parent in the table.
  const tops = new Map(
    ordered
      .filter((o) => o.depth === 0)
      .map(({ record }) => [record.id, record.parentId === null ? 0 : (outsideDepth.get(record.parentId) ?? 0) + 1]),
  );
  const topOf = topsOf(inFile, ordered);
  for (const { record, depth } of ordered) {
    const absolute = (tops.get(topOf.get(record.id)!) ?? 0) + depth;
    if (absolute > options.maxTreeDepth) {
      problems.push(
        `${record.at}: "${record.id}" would lie at depth ${absolute}, past MAX_TREE_DEPTH (${options.maxTreeDepth})`,
      );
    }
  }
  if (problems.length > 0) throw new ImportProblems(problems);

  const result: ImportResult = { created: 0, skipped: 0 };
  const levels = new Map<number, ImportRecord[]>();
  for (const { record, depth } of ordered) appendTo(levels, depth, record);
  const batchSize = new Map<number, number>();
  for (const level of [...levels.keys()].sort((a, b) => a - b)) {
    const byParent = new Map<string | null, ImportRecord[]>();
    for (const record of levels.get(level)!) appendTo(byParent, record.parentId, record);
    const groups = [...byParent.entries()].map(([parentId, siblings]) => ({
      parentId,
      siblings: inSiblingOrder(siblings),
    }));
    await inParallel(groups, options.concurrency ?? 16, async ({ parentId, siblings }) => {
      const todo = siblings.filter((record) => !existing.has(record.id));
      result.skipped += siblings.length - todo.length;
      for (let i = todo.length; i < siblings.length; i++) options.onRecord?.();
      for (let at = 0; at < todo.length;) {
        const size = Math.min(batchSize.get(level) ?? FIRST_BATCH, todo.length - at);
        const batch = todo.slice(at, at + size);
        const created = await createBatch(store, parentId, batch);
        if (created === null) {
          batchSize.set(level, Math.max(1, Math.floor(size / 2)));
          continue;
        }
        result.created += created;
        result.skipped += batch.length - created;
        for (let i = 0; i < batch.length; i++) options.onRecord?.();
        at += size;
      }
    });
  }
  return result;
}

/** How many siblings one transaction is first asked to hold, at each depth of the file. */
const FIRST_BATCH = 64;
/** Attempts at one write that meets throttling or concurrent changes, with backoff between them. */
const ATTEMPTS = 5;

/**
 * Creates siblings in one transaction (createNodes), appended after the parent's children; how
 * many it created, or null when one transaction cannot hold them (nothing written: the caller
 * halves the batch). A batch meeting a node created meanwhile (another run) goes node by node.
 */
async function createBatch(store: TreeStore, parentId: string | null, batch: ImportRecord[]): Promise<number | null> {
  if (batch.length === 1) return (await create(store, batch[0]!)) ? 1 : 0;
  try {
    const nodes = batch.map((r) => ({ id: r.id, name: r.name, data: r.data }));
    await retried(() => store.createNodes({ parentId, nodes }, { oneTransaction: true }));
    return batch.length;
  } catch (error) {
    if (error instanceof TooManyItems) return null;
    if (!isTreeError(error, 'ALREADY_EXISTS')) throw error;
    let created = 0;
    for (const record of batch) if (await create(store, record)) created++;
    return created;
  }
}

/** Creates one node (appended after its siblings); false when an earlier or concurrent run did. */
async function create(store: TreeStore, record: ImportRecord): Promise<boolean> {
  try {
    await retried(() =>
      store.createNode({ id: record.id, parentId: record.parentId, name: record.name, data: record.data }),
    );
    return true;
  } catch (error) {
    if (isTreeError(error, 'ALREADY_EXISTS')) return false;
    throw error;
  }
}

/** A write tried again, with backoff, while DynamoDB throttles it or concurrent writes keep changing what it read. */
async function retried<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= ATTEMPTS || !(isTreeError(error, 'SERVICE_UNAVAILABLE') || isTreeError(error, 'CONFLICT')))
        throw error;
      await sleep(backoffDelay(attempt));
    }
  }
}

/** Adds `value` to the list of `key` (in place: an import holds 100,000 records and more). */
function appendTo<K, V>(lists: Map<K, V[]>, key: K, value: V): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}

/** Siblings by their given positions (an export's), else in the file's order (a stable sort). */
const inSiblingOrder = (siblings: ImportRecord[]): ImportRecord[] =>
  siblings.every((s) => s.position !== null)
    ? [...siblings].sort((a, b) => (a.position! < b.position! ? -1 : a.position! > b.position! ? 1 : 0))
    : siblings;

/** Each record's top record (itself, or its ancestor in the file whose parent is not in it), parents first. */
function topsOf(
  inFile: Map<string, ImportRecord>,
  ordered: ReadonlyArray<{ record: ImportRecord; depth: number }>,
): Map<string, string> {
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
