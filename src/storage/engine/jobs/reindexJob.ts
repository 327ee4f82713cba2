import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import {
  keyOfItem,
  keyString,
  pathKeyKey,
  PATH_KEY_SK_PREFIX,
  REINDEX_PK,
  type Item,
  type Key,
} from '../../../dynamodb/keys.js';
import { scanTable } from '../../../dynamodb/scan.js';
import { strategyRecordItem } from '../../../dynamodb/strategyRecord.js';
import { TransactionBuilder, type Condition } from '../../../dynamodb/transactionBuilder.js';
import { TRANSACTION_LIMIT } from '../../../dynamodb/transactWrite.js';
import { ConditionFailed } from '../../../dynamodb/conditionFailed.js';
import { isTreeError } from '../../../errors.js';
import { batchGetItems } from '../../../dynamodb/batchGet.js';
import type { Place, TreeStrategy } from '../../strategy.js';
import { placeOfChain, chainsOf } from '../core/chains.js';
import { commitChunk } from './commitChunk.js';
import type { EngineContext } from '../core/engineContext.js';
import { type JobRecord, type Lease } from './jobRecord.js';
import { openJobsOf } from '../core/openJobs.js';
import { releaseReindex } from './reindexLock.js';
import { isNodeKey, LIVE, nodeFromItem, nodeKey, storedFromItem } from '../core/items.js';
import { KEYED, keptFields, keyOfIn, NOWHERE, projectionItems, type KeyOf } from '../core/projectionPlans.js';
import { readStored } from '../core/reads.js';

/**
 * A reindex (`tree reindex --to S`) is a job (kind REINDEX): it rebuilds, in place, the
 * projection of a target strategy from the truth, each node's place fields and projection
 * items; other strategies' projection items and place fields are removed. Like every job it runs
 * under a lease, each transaction fenced (commitChunk), and any live process takes it over when
 * its runner dies. Nodes go tree by tree, depth first (inTreeOrder), so that the nodes of one
 * transaction share the checks of their ancestors; the fence records the last one placed
 * (`after`), and a run taken over places every node that the table does not show placed already
 * (notPlaced). One reindex is open at a time.
 *
 * Live writes go on during a reindex: each node is placed on the condition that nothing its
 * place was computed from changed (its ancestors' parents, its own parent and place fields), and
 * read again when that fails, so a fresher write is never overwritten by a stale place.
 */
const ATTEMPTS = 6;

/**
 * A reindex checkpoint as earlier versions wrote it (pk REINDEX, sk the strategy): nothing of it
 * is read but its key, the first run of a reindex deletes it.
 */
export const REINDEX_CHECKPOINT_ITEM = z.object({ sk: z.string() });

export async function runReindexJob(ctx: EngineContext, job: JobRecord, lease: Lease): Promise<void> {
  await reindex(ctx, job, lease);
  await releaseReindex(ctx, job.id);
}

async function reindex(ctx: EngineContext, job: JobRecord, lease: Lease): Promise<void> {
  const target = ctx.strategies.find((s) => s.name === job.target);
  const failed = () => commitChunk(ctx, new TransactionBuilder(ctx.table), lease, { finish: 'FAILED' });
  if (!target) return failed();
  const keyOf = keyOfIn({ strategy: target, typedData: ctx.typedData });
  const scan = await scanTruth(ctx, keyOf);
  const placeFields = [...new Set(ctx.strategies.flatMap((s) => Object.keys(s.nodeFields(KEYED))))];
  const lineage = keptFields(target).lineage;
  const run: Run = { ctx, target, placeFields, lineage, keyOf, lease, total: scan.ids.length };
  const resumed = (job.after ?? null) !== null;
  const ordered = inTreeOrder(scan);
  const todo = resumed ? ordered.filter(notPlaced(run, scan)) : ordered;
  // A chain the scan could not follow may be a scan that met a live move half-way: read again.
  const reread = new Map<string, Placed>();
  try {
    const broken = todo.filter((id) => !scan.placeOf(id));
    if (broken.length > 0) for (const node of await readPlaced(ctx, broken, keyOf)) reread.set(node.id, node);
  } catch (error) {
    if (!(error instanceof BrokenTruth)) throw error;
    // `tree verify` names every problem; the job fails rather than retry for ever.
    console.error(`reindex job ${job.id}: ${error.message}; run tree verify and fix the truth first`);
    return failed();
  }
  // Projection items of the other strategies go first (and checkpoints of earlier versions).
  if (!resumed) {
    const stale = scan.items.filter(
      (i) => i.pk === REINDEX_PK || ctx.strategies.some((s) => s !== target && s.owns(i)),
    );
    await inChunks(run, stale, (tx, item) => tx.delete({ pk: item.pk, sk: item.sk }));
  }
  const written = await placeNodes(run, todo, scan, reread);
  // Items of the target's kind that the truth does not imply (left by a crash or a bug) go last,
  // each on the condition that its node still has the place it was given here.
  const placeOfId = (id: string) => written.get(id) ?? scan.placeOf(id) ?? NOWHERE;
  const expected = new Set(scan.ids.flatMap((id) => target.itemsFor(id, placeOfId(id))).map((item) => keyString(item)));
  const strays = scan.items.filter((i) => target.owns(i) && !expected.has(keyString(i)));
  await removeStrays(run, strays, (id) => (scan.nodes.has(id) ? placeOfId(id) : null));
  await claimPathKeys(ctx, lease, scan);
  // The tenant's trees are built for the target now: starts under it are let through, under
  // any other refused (dynamodb/strategyRecord.ts). Recorded by the job's last transaction, so
  // with its end and under its fence: a runner that lost its lease records nothing.
  const record = strategyRecordItem({ tenant: ctx.tenant, strategy: target.name, by: 'reindex' });
  await commitChunk(ctx, new TransactionBuilder(ctx.table).put(record), lease, { finish: 'DONE' });
}

/** The table as one scan read it: its items, the nodes in the tree, their ids in order, and their places. */
interface TruthScan {
  items: Array<Item & Key>;
  nodes: Map<string, Item>;
  ids: string[];
  /** The node's place from the scanned parent pointers; undefined when the scan could not follow its chain. */
  placeOf: (id: string) => Place | undefined;
}

async function scanTruth(ctx: EngineContext, keyOf: KeyOf): Promise<TruthScan> {
  const items = await scanTable(ctx.doc, ctx.table);
  // Not the nodes of an import that has not joined them to the tree: they are not in it yet.
  const importing = openJobsOf(undefined, items).importing;
  const nodes = new Map<string, Item>();
  for (const item of items.filter(isNodeKey)) {
    const { node, deleting, pending } = storedFromItem(item);
    if (deleting === undefined && !(pending !== undefined && importing.has(pending))) nodes.set(node.id, item);
  }
  const facts = chainsOf(nodes, ctx.maxTreeDepth);
  const places = new Map<string, Place | undefined>();
  const placeOf = (id: string): Place | undefined => {
    if (places.has(id)) return places.get(id);
    const chain = facts.get(id)?.chain;
    const place = chain ? placeOfChain(nodes, chain, nodes.get(id)!, keyOf) : undefined;
    places.set(id, place);
    return place;
  };
  return { items, nodes, ids: [...nodes.keys()].sort(), placeOf };
}

/**
 * The nodes tree by tree, each depth first (a node before its descendants, a subtree's nodes
 * together), those whose chain the scan could not follow last. A transaction's nodes then share
 * most of their ancestors, whose checks merge into one action each: placing a binary tree of
 * 127 nodes under `nested-set` takes 2.15 actions a node, against 3.46 in id order.
 */
function inTreeOrder(scan: TruthScan): string[] {
  const keyOf = new Map<string, string>();
  for (const id of scan.ids) {
    const place = scan.placeOf(id);
    keyOf.set(id, place ? [...place.path, id].join('\u0000') : `\uffff${id}`);
  }
  return [...scan.ids].sort((a, b) => (keyOf.get(a)! < keyOf.get(b)! ? -1 : 1));
}

/**
 * For a run that takes the job over: whether a node is yet to be placed. Placed already: its
 * item has the target's place fields (and no other strategy's) for its place as scanned, and
 * the scan holds each of its projection items as they would be written now.
 */
function notPlaced(run: Run, scan: TruthScan): (id: string) => boolean {
  const stored = new Map(scan.items.map((item) => [keyString(item), item]));
  return (id) => {
    const place = scan.placeOf(id);
    const item = scan.nodes.get(id);
    if (!place || !item) return true;
    const fields: Record<string, unknown> = { ...run.target.nodeFields(place) };
    if (run.placeFields.some((field) => !isDeepStrictEqual(item[field], fields[field]))) return true;
    return itemsOf(run, { id, item, place }).some((wanted) => !holdsExactly(stored.get(keyString(wanted)), wanted));
  };
}

/**
 * Places the nodes (`todo`, in tree order), as many as fit in each fenced transaction; a group
 * that a live write changed meanwhile is read again and placed node by node. Answers the places
 * given where they differ from the scan's.
 */
async function placeNodes(
  run: Run,
  todo: string[],
  scan: TruthScan,
  reread: Map<string, Placed>,
): Promise<Map<string, Place>> {
  const { ctx, lease } = run;
  const written = new Map<string, Place>();
  const chunk = ctx.transactionItems - 1; // one action is the fence
  let tx = new TransactionBuilder(ctx.table);
  let group: Placed[] = [];
  const flush = async () => {
    if (group.length === 0) return;
    try {
      await commitChunk(ctx, tx, lease, { done: group.length, record: { after: group.at(-1)!.id, total: run.total } });
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
      // A live write moved one of these nodes or an ancestor since they were read.
      for (const node of await readPlaced(
        ctx,
        group.map((p) => p.id),
        run.keyOf,
      )) {
        written.set(node.id, node.place);
        await placeAlone(run, node);
      }
    }
    tx = new TransactionBuilder(ctx.table);
    group = [];
  };
  for (const id of todo) {
    const scanned = scan.placeOf(id);
    const node: Placed | undefined = scanned ? { id, item: scan.nodes.get(id)!, place: scanned } : reread.get(id);
    if (!node) continue; // deleted since the scan
    if (!scanned) written.set(id, node.place);
    const alone = new TransactionBuilder(ctx.table);
    planPlace(alone, run, node);
    if (alone.size > chunk) {
      await flush();
      await placeAlone(run, node);
      continue;
    }
    if (!tx.holds(alone, chunk)) await flush();
    planPlace(tx, run, node);
    group.push(node);
  }
  await flush();
  return written;
}

interface Run {
  ctx: EngineContext;
  target: TreeStrategy;
  /** Every place field some strategy keeps on node items. */
  placeFields: string[];
  /** Whether the target keeps sibling positions: a reorder of an ancestor then changes a place. */
  lineage: boolean;
  /** The path key a place of the target holds of a node (KeyOf). */
  keyOf: KeyOf;
  lease: Lease;
  total: number;
}

/** Whether a stored item holds what `wanted` says (its attributes left undefined are not written). */
function holdsExactly(stored: Item | undefined, wanted: Item): boolean {
  if (!stored) return false;
  const attributes = Object.keys(wanted).filter((name) => wanted[name] !== undefined);
  return (
    attributes.length === Object.keys(stored).length &&
    attributes.every((name) => isDeepStrictEqual(stored[name], wanted[name]))
  );
}

/** A node as read for the reindex: its item, and its place from the parent pointers. */
interface Placed {
  id: string;
  item: Item;
  place: Place;
}

/** Fenced transactions of as many `plan`s as fit, one item each. */
async function inChunks<T>(run: Run, list: T[], plan: (tx: TransactionBuilder, item: T) => void): Promise<void> {
  const chunk = run.ctx.transactionItems - 1;
  for (let i = 0; i < list.length; i += chunk) {
    const tx = new TransactionBuilder(run.ctx.table);
    for (const item of list.slice(i, i + chunk)) plan(tx, item);
    await commitChunk(run.ctx, tx, run.lease);
  }
}

/** The target's projection items of a node, copies carrying the node as read. */
const itemsOf = (run: Run, { item, place }: Placed) => projectionItems(run.target, nodeFromItem(item), place);

/** The conditions that the node (its copies included) and its chain are as read. */
function planUnchanged(tx: TransactionBuilder, run: Run, { id, item, place }: Placed): void {
  const chain = place.path;
  chain.forEach((ancestorId, i) => {
    const position: Condition[] = run.lineage ? [{ equals: ['position', place.lineage[i]!] }] : [];
    tx.check(
      nodeKey(ancestorId),
      { exists: true },
      { equalsOrMissing: ['parentId', i === 0 ? null : chain[i - 1]!] },
      ...position,
    );
  });
  tx.check(
    nodeKey(id),
    { exists: true },
    { equalsOrMissing: ['parentId', chain.at(-1) ?? null] },
    typeof item.rev === 'number' ? { equals: ['rev', item.rev] } : { missing: 'rev' },
    ...run.placeFields.map((field): Condition =>
      item[field] === undefined ? { missing: field } : { equals: [field, item[field]] },
    ),
  );
}

/** A node's place fields (other strategies' removed) and projection items, unless it changed. */
function planPlace(tx: TransactionBuilder, run: Run, node: Placed, items = true): void {
  planUnchanged(tx, run, node);
  const fields = run.target.nodeFields(node.place);
  const update = { set: { ...fields }, remove: run.placeFields.filter((field) => !(field in fields)) };
  if (Object.keys(update.set).length > 0 || update.remove.length > 0) tx.update(nodeKey(node.id), update);
  if (items) for (const item of itemsOf(run, node)) tx.put(item);
}

/**
 * One node in transactions of its own: its projection items in slices when they exceed one (a
 * deep closure node), its place fields last. A node that changed since it was read is read again.
 */
async function placeAlone(run: Run, first: Placed): Promise<void> {
  const { ctx, lease } = run;
  let node = first;
  for (let attempt = 0; ; attempt++) {
    try {
      const items = itemsOf(run, node);
      const guard = new TransactionBuilder(ctx.table);
      planUnchanged(guard, run, node);
      // The conditions on a node's chain are one whole: past TRANSACTION_ITEMS if they must be
      // (a chain of up to 90 ancestors, its node, an item and the fence fit DynamoDB's 100).
      const slice = Math.max(ctx.transactionItems, Math.min(TRANSACTION_LIMIT, guard.size + 3)) - 1 - guard.size;
      for (let i = 0; i < items.length; i += slice) {
        const tx = new TransactionBuilder(ctx.table);
        planUnchanged(tx, run, node);
        for (const item of items.slice(i, i + slice)) tx.put(item);
        await commitChunk(ctx, tx, lease);
      }
      const last = new TransactionBuilder(ctx.table);
      planPlace(last, run, node, false);
      return await commitChunk(ctx, last, lease, { done: 1, record: { after: node.id } });
    } catch (error) {
      if (!(error instanceof ConditionFailed) || attempt >= ATTEMPTS) throw error;
      const [again] = await readPlaced(ctx, [node.id], run.keyOf);
      if (!again) return; // deleted meanwhile: nothing to place
      node = again;
    }
  }
}

/**
 * The nodes read again, strongly consistent, with their chains walked from parent pointers (one
 * wave per level); a node whose chain is broken (a missing ancestor, a cycle) throws BrokenTruth.
 * Nodes deleted meanwhile are left out.
 */
async function readPlaced(ctx: EngineContext, ids: string[], keyOf: KeyOf): Promise<Placed[]> {
  const items = await batchGetItems(ctx.doc, ctx.table, ids.map(nodeKey));
  const parentOf = new Map<string, string | null>();
  const positionOf = new Map<string, string>();
  const keyOfId = new Map<string, string>();
  const placed = ids.flatMap((id) => {
    const item = items.get(keyString(nodeKey(id)));
    if (!item) return [];
    const { node, deleting } = storedFromItem(item);
    return deleting === undefined ? [{ item, node }] : [];
  });
  let pending = placed.map(({ node }) => node.parentId).filter((p): p is string => p !== null);
  for (let step = 0; pending.length > 0 && step <= ctx.maxTreeDepth + 1; step++) {
    const read = await readStored(
      ctx,
      [...new Set(pending)].filter((id) => !parentOf.has(id)),
    );
    for (const [id, stored] of read) {
      parentOf.set(id, stored.node.parentId);
      positionOf.set(id, stored.node.position);
      keyOfId.set(id, keyOf(stored.node));
    }
    pending = [...read.values()].map((s) => s.node.parentId).filter((p): p is string => p !== null && !parentOf.has(p));
  }
  return placed.map(({ item, node }) => {
    const chain: string[] = [];
    for (let id = node.parentId; id !== null; id = parentOf.get(id)!) {
      if (!parentOf.has(id)) throw new BrokenTruth(node.id, `ancestor ${id} does not exist`);
      if (chain.length > ctx.maxTreeDepth)
        throw new BrokenTruth(node.id, 'its parent pointers make a cycle, or a chain deeper than the limit');
      chain.unshift(id);
    }
    return {
      id: node.id,
      item,
      place: {
        path: chain,
        lineage: [...chain.map((id) => positionOf.get(id)!), node.position],
        keys: chain.length === 0 ? [] : [...chain.slice(1).map((id) => keyOfId.get(id)!), keyOf(node)],
      },
    };
  });
}

/** The truth is not a forest: no projection can be built from it until it is repaired. */
class BrokenTruth extends Error {
  constructor(
    readonly nodeId: string,
    problem: string,
  ) {
    super(`node ${nodeId}: ${problem}`);
    this.name = 'BrokenTruth';
  }
}

/**
 * Deletes items of the target's kind that the truth does not imply, each with its node (the
 * `id` it names) checked to still have the path the reindex gave it: an item that a live write
 * made valid since is left alone.
 */
async function removeStrays(run: Run, strays: Item[], placeOfId: (id: string) => Place | null): Promise<void> {
  const remove = async (group: Item[]): Promise<void> => {
    const tx = new TransactionBuilder(run.ctx.table);
    for (const stray of group) {
      tx.delete(keyOfItem(stray));
      const id = typeof stray.id === 'string' ? stray.id : null;
      const place = id === null ? null : placeOfId(id);
      if (id === null) continue;
      if (place === null) tx.check(nodeKey(id), { notExists: true });
      else {
        const kept = Object.entries(run.target.nodeFields(place)).map(([field, value]): Condition => ({
          equals: [field, value],
        }));
        if (kept.length > 0) tx.check(nodeKey(id), ...kept);
      }
    }
    try {
      await commitChunk(run.ctx, tx, run.lease);
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
      // A live write changed a node of the group, whose items are its own now: the others
      // one by one.
      if (group.length > 1) for (const stray of group) await remove([stray]);
    }
  };
  // At most two actions per stray (its delete, its node's check).
  const perTransaction = Math.floor((run.ctx.transactionItems - 1) / 2);
  for (let i = 0; i < strays.length; i += perTransaction) await remove(strays.slice(i, i + perTransaction));
}

/**
 * A reindex's last pass under the node types (docs/contract.md, "Paths"): the path key value of
 * each node of the scan that no path key item holds for it (its type was given its @pathKey after
 * the node was written) is claimed now, each in a transaction of its own, on the condition that
 * the value is still free and the node unchanged since the scan. A value a sibling holds (two
 * siblings written with one value before the @pathKey) stays the sibling's, and a node changed
 * meanwhile was claimed by its own write: both are passed over, for `tree verify` to name.
 */
async function claimPathKeys(
  ctx: EngineContext,
  lease: Lease,
  scan: { items: ReadonlyArray<Item & Key>; nodes: ReadonlyMap<string, Item> },
): Promise<void> {
  const typed = ctx.typedData;
  if (!typed) return;
  const held = new Set(
    scan.items.filter((i) => i.sk.startsWith(PATH_KEY_SK_PREFIX) && i[LIVE] !== undefined).map((i) => keyString(i)),
  );
  for (const item of scan.nodes.values()) {
    const { node, rev } = storedFromItem(item);
    const value = node.parentId === null ? null : typed.pathKeyOf(node);
    if (!value) continue;
    const key = pathKeyKey(node.parentId!, value);
    if (held.has(keyString(key))) continue;
    held.add(keyString(key));
    const tx = new TransactionBuilder(ctx.table)
      .put({ ...key, [LIVE]: node.id, id: node.id }, { missingOrEquals: [LIVE, node.id] })
      .check(nodeKey(node.id), { equals: ['rev', rev] });
    try {
      await commitChunk(ctx, tx, lease);
    } catch (error) {
      if (!(error instanceof ConditionFailed) && !isTreeError(error, 'ALREADY_EXISTS')) throw error;
    }
  }
}
