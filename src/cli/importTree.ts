import { backoffDelay, sleep } from '../dynamodb/backoff.js';
import { isTreeError } from '../errors.js';
import { TooManyItems, type TreeNode, type TreeStore } from '../storage/treeStore.js';
import { checkImport, type TableFacts } from './checkImport.js';
import { ImportProblems } from './importProblems.js';
import { inParentOrder, type ImportRecord, type ParsedImport } from './importRecords.js';
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
 * Imports a parsed file (importRecords.ts) into the store. First it reads what the table holds of
 * the file's ids and parents, and checks the whole file against it in one pass (checkImport.ts:
 * the file's own problems, cycles, unknown parents, depths past MAX_TREE_DEPTH, ids taken by a
 * node elsewhere; an id taken by a node under the same parent is a record imported already,
 * skipped), writing nothing if anything is wrong: ImportProblems. Then it creates the nodes
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
  parsed: ParsedImport,
  options: ImportOptions,
): Promise<ImportResult> {
  const { existing, facts } = await readTable(store, parsed);
  const problems = checkImport(parsed, facts, options.maxTreeDepth);
  if (problems.length > 0) throw new ImportProblems(problems);
  const ordered = inParentOrder(parsed.records);

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

/** The nodes of the table with the file's ids, and what the checks need to know of the table (TableFacts). */
async function readTable(
  store: TreeStore,
  parsed: ParsedImport,
): Promise<{ existing: Map<string, TreeNode>; facts: TableFacts }> {
  const inFile = new Set(parsed.records.map((r) => r.id));
  const existing = await readAll(store, [...inFile]);
  const outsideIds = new Set<string>();
  for (const { parentId } of parsed.records) {
    if (parentId !== null && !inFile.has(parentId) && !parsed.unplaced.has(parentId)) outsideIds.add(parentId);
  }
  const outside = [...(await readAll(store, [...outsideIds])).values()];
  const chains =
    outside.length > 0 ? await store.ancestors(outside, async (ids) => [...(await readAll(store, ids)).values()]) : [];
  return {
    existing,
    facts: {
      parentOf: new Map([...existing].map(([id, node]) => [id, node.parentId])),
      depthOf: new Map(outside.map((node, i) => [node.id, node.depth ?? chains[i]!.length])),
    },
  };
}

/** Live nodes by id, read a chunk at a time. */
async function readAll(store: TreeStore, ids: readonly string[]): Promise<Map<string, TreeNode>> {
  const found = new Map<string, TreeNode>();
  for (let i = 0; i < ids.length; i += READ_CHUNK) {
    for (const [id, node] of await store.getNodes(ids.slice(i, i + READ_CHUNK))) found.set(id, node);
  }
  return found;
}
