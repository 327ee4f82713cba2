import type { TypedData } from '../nodeTypes/typedData.js';
import { backoffDelay, sleep } from '../dynamodb/backoff.js';
import { isTreeError } from '../errors.js';
import { TooManyItems, type TreeNode, type TreeStore } from '../storage/treeStore.js';
import { checkImport, type TableFacts } from './checkImport.js';
import { ImportProblems } from './importProblems.js';
import { inParentOrder, type ImportRecord, type ParsedImport } from './importRecords.js';
import { drainQueue } from '../inParallel.js';
import { fileTree, nextPack, type FileTree } from './importPacks.js';

export interface ImportOptions {
  /** MAX_TREE_DEPTH: a record that would lie deeper is a problem of the file. */
  maxTreeDepth: number;
  /** Parents whose children are created at the same time (each parent's children in order). */
  concurrency?: number;
  /** Told of each record done (created, or found already imported). */
  onRecord?: () => void;
  /** The node types (NODE_TYPES): the file's top records are checked against their parents' types. */
  typed?: TypedData;
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
 * moment it exists, under every strategy: each parent's children in their order (their positions
 * when given, else the file's), in packs of whole subtrees that one transaction holds
 * (importPacks.ts), `concurrency` parents at a time, a parent's packs one after the other; a node
 * whose subtree did not fit its pack has its remaining children packed once it exists. A pack
 * holds at most `budget` nodes: 64 at first, the most that fit when the store says one
 * transaction cannot hold a pack (it counts the items: the budget follows the strategy and the
 * depth), and one more after each pack that fit. Each pack is tried again with backoff while
 * DynamoDB throttles. Interrupted, it is resumed by running it again: what exists is skipped,
 * and each parent's children created so far are the first of them (a pack is all or nothing,
 * and a parent's packs go in order), so the rest is appended in order.
 */
export async function importTree(
  store: TreeStore,
  parsed: ParsedImport,
  options: ImportOptions,
): Promise<ImportResult> {
  const { existing, facts } = await readTable(store, parsed);
  const problems = checkImport(parsed, facts, options.maxTreeDepth, options.typed);
  if (problems.length > 0) throw new ImportProblems(problems);
  const ordered = inParentOrder(parsed.records).map(({ record }) => record);
  const byParent = new Map<string | null, ImportRecord[]>();
  for (const record of ordered) appendTo(byParent, record.parentId, record);
  for (const [parentId, siblings] of byParent) byParent.set(parentId, inSiblingOrder(siblings));
  const run: Run = {
    store,
    tree: fileTree(ordered, byParent),
    existing,
    budget: FIRST_BUDGET,
    result: { created: 0, skipped: 0 },
    created: new Set(),
    onRecord: options.onRecord ?? (() => {}),
  };
  const inFile = new Set(ordered.map((r) => r.id));
  const starts = [...byParent.keys()].filter((parentId) => parentId === null || !inFile.has(parentId));
  await drainQueue(starts, options.concurrency ?? 16, (parentId, push) => importChildren(run, parentId, push));
  return run.result;
}

/** What the packs of one import share. */
interface Run {
  store: TreeStore;
  tree: FileTree;
  existing: ReadonlyMap<string, TreeNode>;
  /** The most nodes a pack holds, as learned so far. */
  budget: number;
  result: ImportResult;
  /** The records this run created. */
  created: Set<string>;
  onRecord: () => void;
}

/** The most nodes a pack first holds. */
const FIRST_BUDGET = 64;

/**
 * The file's children of one parent that exists: those that exist already skipped (their own
 * children then imported below them), the rest in packs, in order; each node a pack cut is
 * pushed, for its remaining children.
 */
async function importChildren(run: Run, parentId: string | null, push: (parentId: string) => void): Promise<void> {
  const siblings = run.tree.childrenOf.get(parentId) ?? [];
  const todo: ImportRecord[] = [];
  for (const record of siblings) {
    if (run.existing.has(record.id)) {
      run.result.skipped++;
      run.onRecord();
      if (run.tree.childrenOf.has(record.id)) push(record.id);
    } else if (!run.created.has(record.id)) todo.push(record);
  }
  for (let at = 0; at < todo.length;) {
    const pack = nextPack(run.tree, todo, at, run.budget);
    const created = await createPack(run, parentId, pack.records);
    if (created === null) continue; // the budget is smaller now: pack again
    for (const record of pack.records) run.created.add(record.id);
    run.result.created += created;
    run.result.skipped += pack.records.length - created;
    for (let i = 0; i < pack.records.length; i++) run.onRecord();
    for (const id of pack.cut) push(id);
    at = pack.next;
  }
}

/**
 * Creates a pack in one transaction (createNodes), its top nodes appended after the parent's
 * children; how many it created, or null when one transaction cannot hold it (nothing written:
 * the budget becomes what the store's count says fits). A pack meeting a node created meanwhile
 * (another run) goes node by node, parents first.
 */
async function createPack(run: Run, parentId: string | null, pack: ImportRecord[]): Promise<number | null> {
  if (pack.length === 1) return (await create(run.store, pack[0]!)) ? 1 : 0;
  try {
    const nodes = pack.map((r) => ({
      id: r.id,
      parentId: r.parentId === parentId ? null : r.parentId,
      name: r.name,
      data: r.data,
      type: r.type,
    }));
    await retried(() => run.store.createNodes({ parentId, nodes }, { oneTransaction: true }));
    run.budget = Math.min(FIRST_BUDGET, run.budget + 1);
    return pack.length;
  } catch (error) {
    if (error instanceof TooManyItems) {
      run.budget = Math.max(1, Math.min(pack.length - 1, Math.floor((pack.length * error.limit) / error.items)));
      return null;
    }
    if (!isTreeError(error, 'ALREADY_EXISTS')) throw error;
    let created = 0;
    for (const record of pack) if (await create(run.store, record)) created++;
    return created;
  }
}

/** Attempts at one write that meets throttling or concurrent changes, with backoff between them. */
const ATTEMPTS = 5;

/**
 * Creates one node (appended after its siblings); false when an earlier or concurrent run did.
 * A path key another node holds is no earlier run's: it stops the import.
 */
async function create(store: TreeStore, record: ImportRecord): Promise<boolean> {
  const { id, parentId, name, data, type } = record;
  try {
    await retried(() => store.createNode({ id, parentId, name, data, ...(type ? { type } : {}) }));
    return true;
  } catch (error) {
    if (isTreeError(error, 'ALREADY_EXISTS') && error.details?.pathKey === undefined) return false;
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
      typeOf: new Map(outside.map((node) => [node.id, node.type ?? null])),
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
