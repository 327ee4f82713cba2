import { batchGetItems } from '../../../dynamodb/batchGet.js';
import { repeatedDoc } from '../../../dynamodb/costMeter.js';
import { MalformedItem } from '../../../dynamodb/decodeItem.js';
import { keyString, nodeIdOf, type Item, type Key } from '../../../dynamodb/keys.js';
import { walkLimit, type StoredNode, type StrategyContext, type TreeStrategy } from '../../strategy.js';
import type { LeftOut, TreeNode } from '../../treeStore.js';
import type { TableContext } from '../core/engineContext.js';
import { attributesRead, nodeFromItemWithout, nodeKey, storedFromItem, withPath } from '../core/items.js';
import {
  isActive,
  NO_OPEN_JOBS,
  OPEN_JOBS_KEY,
  openJobsOf,
  projectionSettled,
  readAgain,
  settledPath,
  type OpenJobs,
} from '../core/openJobs.js';
import { readOpenEntries, readStored } from '../core/reads.js';

/**
 * Nodes by id as every read must see them: present, not written by an import that has not
 * joined them to the tree yet, not marked deleting, not inside a subtree
 * that an open delete job is removing (only its root is marked), and, inside
 * a subtree that an open move job is rewriting, with the path they have once it is done
 * (openJobs.ts). The summary of the open jobs (OPEN_JOBS_KEY) comes in the same BatchGet as the
 * nodes, one more key, read once per request (ReadScope); only while it is active (jobs ran
 * lately) does a read cost one more request, the Query of the jobs' entries, and only while a
 * delete job is open more again: nodes that keep their path are checked against it, the others
 * walk their parent pointers, one BatchGet wave per level.
 */

/**
 * What one request remembers of the open jobs: read with its first read of nodes by id, then
 * reused, so that later reads of the request (a page of 100 descendants) need no room for the
 * list in their BatchGet. A request sees the jobs that were open when it first read nodes.
 */
export interface ReadScope {
  open?: OpenJobs;
}

export async function readExistingNodes(
  ctx: TableContext,
  ids: readonly string[],
  scope: ReadScope = {},
): Promise<Map<string, TreeNode>> {
  const nodes = new Map<string, TreeNode>();
  const visible = await readVisible(ctx, ids, scope);
  const open = scope.open ?? NO_OPEN_JOBS;
  for (const [id, { node, deleting }] of visible) {
    if (deleting !== undefined) continue;
    nodes.set(id, node.path && open.moves.length > 0 ? withPath(node, settledPath(open, id, node.path)) : node);
  }
  return nodes;
}

/**
 * Node items by id, as a write reads them (marked ones included, kept paths as stored),
 * without the nodes lying below a subtree being deleted: to a write as to a read, they no
 * longer exist. Without a scope (or in a scope's first read), the open jobs are read with the
 * nodes (withOpenJobs); they are left in the scope.
 */
export async function readVisible(
  ctx: TableContext,
  ids: readonly string[],
  scope: ReadScope = {},
): Promise<Map<string, StoredNode>> {
  const keys = ids.map(nodeKey);
  const known = scope.open;
  const { items, open } = known
    ? { items: await batchGetItems(ctx.doc, ctx.table, keys), open: known }
    : await withOpenJobs(ctx, keys);
  scope.open = open;
  const found = new Map<string, StoredNode>();
  for (const id of ids) {
    const item = items.get(keyString(nodeKey(id)));
    const stored = item && storedFromItem(item);
    // A node of an import that has not joined the tree yet does not exist for anyone.
    if (stored && !(stored.pending !== undefined && open.importing.has(stored.pending))) found.set(id, stored);
  }
  if (open.deleting.size > 0) {
    const alive = [...found.values()].filter((stored) => stored.deleting === undefined);
    for (const id of await insideSubtrees(ctx, alive, open.deleting)) found.delete(id);
  }
  return found;
}

/** Reads of the nodes and the summary again, when a read took so long that it may have met a job's start. */
const READ_AGAIN_ATTEMPTS = 3;

/**
 * Items by key and the open jobs: the summary in the same BatchGet as the items, then, while it
 * is active, the entries. Read again when the read spanned a job's start or its close
 * (openJobs.ts, readAgain).
 */
async function withOpenJobs(
  ctx: TableContext,
  keys: readonly Key[],
): Promise<{ items: Map<string, Item>; open: OpenJobs }> {
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    const doc = attempt === 1 ? ctx.doc : repeatedDoc(ctx.doc);
    let items = await batchGetItems(doc, ctx.table, [OPEN_JOBS_KEY, ...keys]);
    const summary = items.get(keyString(OPEN_JOBS_KEY));
    const active = isActive(openJobsOf(summary), started);
    const open = openJobsOf(summary, active ? await readOpenEntries({ ...ctx, doc }) : []);
    const again = keys.length > 0 ? readAgain(open, started, Date.now() - started) : undefined;
    if (again === 'everything' && attempt < READ_AGAIN_ATTEMPTS) continue;
    if (again === 'nodes') items = await batchGetItems(repeatedDoc(ctx.doc), ctx.table, keys);
    return { items, open };
  }
}

/** The open jobs as the scope knows them; read (the summary, the entries while it is active) when it does not yet. */
export async function readOpenJobs(ctx: TableContext, scope: ReadScope = {}): Promise<OpenJobs> {
  if (!scope.open) await readVisible(ctx, [], scope);
  return scope.open ?? NO_OPEN_JOBS;
}

/** The ids of `nodes` that lie below one of `roots` (or below any node marked deleting). */
async function insideSubtrees(ctx: TableContext, nodes: StoredNode[], roots: Set<string>): Promise<string[]> {
  const inside: string[] = [];
  /** Node id -> the ancestor to look at next. */
  let pending = new Map<string, string>();
  for (const { node } of nodes) {
    if (node.path) {
      if (node.path.some((id) => roots.has(id))) inside.push(node.id);
    } else if (node.parentId !== null) {
      pending.set(node.id, node.parentId);
    }
  }
  for (let step = 0; pending.size > 0; step++) {
    if (step > walkLimit(ctx)) throw new Error('parent chain longer than the depth limit allows');
    const ancestors = await readStored(ctx, [...new Set(pending.values())]);
    const next = new Map<string, string>();
    for (const [id, ancestorId] of pending) {
      const ancestor = ancestors.get(ancestorId);
      // Missing: the job deletes children before parents, so only a deleted subtree lacks one.
      if (!ancestor || ancestor.deleting !== undefined || roots.has(ancestorId)) inside.push(id);
      else if (ancestor.node.parentId !== null) next.set(id, ancestor.node.parentId);
    }
    pending = next;
  }
  return inside;
}

/** `leftOut` without childCount: what reads of items that carry it leave out. */
const counted = (leftOut: LeftOut): LeftOut => leftOut.filter((field) => field !== 'childCount');

/**
 * The node of a copy that lacks the fields `lacks` (TreeStrategy.copyLacks): built without them
 * when the read leaves them out, otherwise none (the node is read by id). None either for an
 * item that holds no whole copy, such as a row written before its strategy kept such copies.
 */
function fromPartialCopy(
  item: Item,
  lacks: readonly string[],
  leftOut: LeftOut,
  build: (item: Item) => TreeNode,
): TreeNode | undefined {
  if (!lacks.every((field) => (leftOut as readonly string[]).includes(field))) return undefined;
  try {
    return build(item);
  } catch (error) {
    if (error instanceof MalformedItem) return undefined;
    throw error;
  }
}

/**
 * The context of a read whose nodes are wanted without the fields `leftOut`: the strategy's
 * Queries of copies ask only for the others (StrategyContext.reading), and its nodes are built
 * without them. The context itself when nothing is left out.
 */
export function leaving<C extends StrategyContext>(ctx: C, leftOut: LeftOut | undefined): C {
  if (!leftOut || leftOut.length === 0) return ctx;
  const reading = attributesRead(leftOut);
  return Object.assign({}, ctx, {
    reading,
    nodesOf: (items: readonly Item[]) => ctx.nodesOf(items, leftOut),
    // Edge copies carry childCount, and walks read it: only copies that lack it go without.
    nodeFromItem: nodeFromItemWithout(counted(leftOut)),
    queryChildren: (parentId: string, query: Parameters<C['queryChildren']>[1]) =>
      ctx.queryChildren(parentId, { ...query, reading }),
  });
}

/**
 * The existing nodes of projection items (StrategyContext.nodesOf): from the copies they carry
 * while no open job makes a copy unsafe to answer from (a subtree being deleted still has its
 * items; one being moved has them at its old place; a reindex to another strategy removes
 * them), otherwise, and for items that carry no copy, read by id through `read`.
 */
export async function nodesOfItems(
  strategy: TreeStrategy,
  open: OpenJobs,
  items: readonly Item[],
  read: (ids: readonly string[]) => Promise<Map<string, TreeNode>>,
  leftOut: LeftOut = [],
): Promise<Map<string, TreeNode>> {
  const safe = projectionSettled(open, strategy.name);
  const nodeFromItem = nodeFromItemWithout(counted(leftOut));
  const nodeFromPartialCopy = nodeFromItemWithout(leftOut);
  const found = new Map<string, TreeNode>();
  const missing: string[] = [];
  for (const item of items) {
    const lacks = safe && strategy.carriesNode(item as Key) ? (strategy.copyLacks?.(item as Key) ?? []) : undefined;
    const node =
      lacks === undefined
        ? undefined
        : lacks.length === 0
          ? nodeFromItem(item)
          : fromPartialCopy(item, lacks, leftOut, nodeFromPartialCopy);
    if (node) found.set(node.id, node);
    else missing.push(nodeIdOf(item));
  }
  if (missing.length > 0) for (const [id, node] of await read(missing)) found.set(id, node);
  return found;
}
