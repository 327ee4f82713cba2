import { DAY_MS } from '../../../durations.js';
import { z } from 'zod';
import type { ChangeDraft } from '../changes/changeRecord.js';
import { decodeItem, jsonText } from '../../../dynamodb/decodeItem.js';
import { IMPORT_PACK_SK_PREFIX, IMPORT_PACKS_PK_PREFIX, type Item, type Key } from '../../../dynamodb/keys.js';
import { keyQuery } from '../../../dynamodb/keyQuery.js';
import { queryItems } from '../../../dynamodb/query.js';
import { putAll } from '../../../dynamodb/transactWrite.js';
import { valueSize } from '../../../dynamodb/itemSize.js';
import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { commitChunk, passWhileChanging } from './commitChunk.js';
import type { EngineContext } from '../core/engineContext.js';
import { edgeKey } from '../core/items.js';
import { IMPORTED_NODE, type ImportedNode, type JobRecord, type Lease } from './jobRecord.js';
import { keyOf, placeOf, projectionItems } from '../core/projectionPlans.js';
import { readStored } from '../core/reads.js';
import { planPathKeys, planRemovePending, planUnmarkEdge } from '../core/writePlans.js';
import { planReleaseNode } from '../core/claims.js';

/**
 * The IMPORT job: the nodes of a createNodes too big for one transaction (createNodes.ts),
 * written so that no read sees any of them until all have joined the tree, and none is left
 * behind if the job is given up. Its steps, each transaction fenced by the job's lease
 * (commitChunk):
 *
 * 1. **pending**: the node items and their edge items, in transactions of up to
 *    TRANSACTION_ITEMS, one after the other. Each node item, and the edge item of each top node (in
 *    the parent's collection), is marked with the job's id (items.ts PENDING): while the job's
 *    entry in the list of open jobs says it is importing, every read and write takes a marked
 *    node for absent (visibleNodes.ts) and every read of children leaves a marked edge out
 *    (reads.ts queryChildren); the other edges are in collections of nodes not in the tree yet.
 *    Under the roots, the projection items go too: they are all in collections of new nodes.
 * 2. **join**, one transaction of a few items however many the top nodes are: the parent's
 *    childCount, the guard on its chain (it has not moved nor been deleted since it was read),
 *    and the job's entry no longer importing: with a projection to write below a parent, it
 *    becomes a move of the parent to where it is (openJobs.ts), so that from then on reads
 *    below and above the parent answer from the truth while the projection is not written, and
 *    structural writes there wait; otherwise it leaves the list.
 * 3. **projection**: each new node's projection items, from its node item (below a parent),
 *    with the release of the job's claim on it (the nodes are claimed from step 1: no write
 *    moves one or adds below one until its projection is there, core/claims.ts); then the marks
 *    leave the top nodes' edges (a marked edge costs each read of the parent's children one more
 *    key), and the job ends.
 *
 * Steps 1 and 2 are the starting process's (importNodes.ts); any process takes step 3 over. A
 * job given up before it joined (a failed step, its process gone: any sweep takes it over)
 * removes what it wrote, node by node while a node item still carries its mark, and ends FAILED.
 */

/**
 * Step 3: below a parent, the projection items of the nodes, from their node items; then the
 * marks leave the top nodes' edges, wherever the nodes are now (a pass that meets one moving is
 * run again); then the job is done.
 */
export async function finishJoined(ctx: EngineContext, job: JobRecord, lease: Lease): Promise<void> {
  const imports = await importsOf(ctx, job);
  if (job.nodeId !== null) {
    const stored = await readStored(
      ctx,
      imports.map(([id]) => id),
    );
    const batches = [...stored.values()].map((s) => (tx: TransactionBuilder) => {
      for (const item of projectionItems(ctx.strategy, s.node, placeOf(ctx.strategy, s))) tx.put(item);
      if (s.claim === job.id) planReleaseNode(tx, s.node.id, job.id);
    });
    await commitInChunks(ctx, lease, batches, false);
  }
  const tops = imports.filter(([, parentId]) => parentId === job.nodeId).map(([id]) => id);
  await passWhileChanging(job.id, async () => {
    const stored = await readStored(ctx, tops);
    const batches = [...stored.values()].map((s) => (tx: TransactionBuilder) => planUnmarkEdge(tx, s.node));
    await commitInChunks(ctx, lease, batches, false);
  });
  await commitChunk(ctx, new TransactionBuilder(ctx.table), lease, { finish: 'DONE' });
}

/** Gives the job up: removes every node it wrote that still carries its mark, with its items; ends FAILED. */
export async function undoImport(ctx: EngineContext, job: JobRecord, lease: Lease): Promise<void> {
  const imports = await importsOf(ctx, job);
  const stored = await readStored(
    ctx,
    imports.map(([id]) => id),
  );
  const batches = imports.flatMap(([id, parentId, position]) => {
    const found = stored.get(id);
    if (found?.pending !== job.id) return [];
    const others: Key[] = [edgeKey({ id, parentId, position })];
    // Under the roots, step 1 wrote the projection too.
    if (job.nodeId === null) others.push(...ctx.strategy.itemsFor(id, placeOf(ctx.strategy, found)).map(keyOf));
    return [
      (tx: TransactionBuilder) => {
        planRemovePending(tx, found.node, job.id, others);
        planPathKeys(tx, ctx, found.node, null);
      },
    ];
  });
  await commitInChunks(ctx, lease, batches, false);
  await commitChunk(ctx, new TransactionBuilder(ctx.table), lease, { finish: 'FAILED' });
}

/** Resumes an import job taken over from a process that stopped: its projection once joined, else its undoing. */
export async function runImportJob(ctx: EngineContext, job: JobRecord, lease: Lease): Promise<void> {
  if (job.joined) await finishJoined(ctx, job, lease);
  else await undoImport(ctx, job, lease);
}

/**
 * An import's list of nodes is held in its record while it weighs up to this (about ten nodes);
 * past it, in packs beside it. Every fenced transaction of the job rewrites its record: a list of
 * 1,000 nodes there would weigh 170 write units a transaction on AWS, a record under 1 KB weighs 2.
 */
const INLINE_IMPORTS_BYTES = 600;
/** Nodes a pack holds: at most 2,000 × (two 64-character ids and a position), under 400 KB. */
const PACK_NODES = 2000;
/** How long packs outlive the start of their job (time to live; a job lasts minutes). */
const PACKS_KEPT_MS = 7 * DAY_MS;

const packPk = (jobId: string) => `${IMPORT_PACKS_PK_PREFIX}${jobId}`;
const packSk = (n: number) => `${IMPORT_PACK_SK_PREFIX}${String(n).padStart(6, '0')}`;

/** A pack of an import's list of nodes, as stored (`C#*import#<jobId>`, `P#<n>`): JSON text. */
export const IMPORT_PACK_ITEM = z.object({ nodes: jsonText(z.array(IMPORTED_NODE)), expiresAt: z.number() });

/**
 * Where an import keeps its list of nodes: in its record (`imports`) when small; otherwise
 * written here, before the job starts, in packs of PACK_NODES (`C#*import#<jobId>`, `P#<n>`),
 * and the record says how many (`importPacks`).
 */
export async function keptImports(
  ctx: Pick<EngineContext, 'doc' | 'table'>,
  jobId: string,
  imports: ImportedNode[],
): Promise<Pick<JobRecord, 'imports' | 'importPacks'>> {
  if (valueSize(imports) <= INLINE_IMPORTS_BYTES) return { imports };
  const expiresAt = Math.ceil((Date.now() + PACKS_KEPT_MS) / 1000);
  const packs: Array<Item & Key> = [];
  for (let i = 0; i < imports.length; i += PACK_NODES) {
    const nodes = JSON.stringify(imports.slice(i, i + PACK_NODES));
    packs.push({ pk: packPk(jobId), sk: packSk(packs.length), nodes, expiresAt });
  }
  await putAll(ctx.doc, ctx.table, packs);
  return { importPacks: packs.length };
}

/** An import job's list of nodes, parents first: from its record, or from its packs. */
export async function importsOf(ctx: Pick<EngineContext, 'doc' | 'table'>, job: JobRecord): Promise<ImportedNode[]> {
  if (job.imports || !job.importPacks) return job.imports ?? [];
  const { items } = await queryItems(ctx.doc, keyQuery(ctx.table, { pk: packPk(job.id) }), job.importPacks);
  if (items.length !== job.importPacks)
    throw new Error(`import job ${job.id}: ${items.length} of ${job.importPacks} packs`);
  return items.flatMap((item) => decodeItem(IMPORT_PACK_ITEM, item).nodes);
}

/**
 * Commits the batches (each a node's writes) in fenced transactions of up to TRANSACTION_ITEMS
 * (and TRANSACTION_BYTES: a node's copies carry its data),
 * one after the other (each writes the job's record: on AWS, transactions in flight together on
 * one item cancel each other); counts them in the job's progress when `count`, each with the
 * change record `change` (its progress, in the tree its nodes go to) when given.
 */
export async function commitInChunks(
  ctx: EngineContext,
  lease: Lease,
  batches: Array<(tx: TransactionBuilder) => void>,
  count = true,
  change?: ChangeDraft,
): Promise<void> {
  const room = ctx.transactionItems - (change ? 2 : 1); // the fence, and the change's record
  const chunks: Array<{ tx: TransactionBuilder; nodes: number }> = [];
  let current = { tx: new TransactionBuilder(ctx.table), nodes: 0 };
  for (const batch of batches) {
    const alone = new TransactionBuilder(ctx.table);
    batch(alone);
    if (current.nodes > 0 && !current.tx.holds(alone, room)) {
      chunks.push(current);
      current = { tx: new TransactionBuilder(ctx.table), nodes: 0 };
    }
    batch(current.tx);
    current.nodes++;
  }
  if (current.nodes > 0) chunks.push(current);
  for (const { tx, nodes } of chunks) {
    await commitChunk(ctx, tx, lease, { ...(count ? { done: nodes } : {}), ...(change ? { change } : {}) });
  }
}
