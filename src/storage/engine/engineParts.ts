import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '../../dynamodb/batchGet.js';
import type { CursorCodec } from '../cursor.js';
import type { TreeStrategy } from '../strategy.js';
import type { Job, StoreScope } from '../treeStore.js';
import type { EngineContext, JobEvent } from './core/engineContext.js';
import { nodeFromItem } from './core/items.js';
import { queryChildren, readChildren, readStored } from './core/reads.js';
import { jobFromItem, jobKey, publicJob } from './jobs/jobRecord.js';
import { nodesOfItems, readExistingNodes, readOpenJobs, type ReadScope } from './reads/visibleNodes.js';

export interface EngineOptions {
  doc: DynamoDBDocumentClient;
  table: string;
  maxTreeDepth: number;
  cursors: CursorCodec;
  jobLeaseMs: number;
  transactionItems: number;
  /** Every strategy, for a reindex from one to another. */
  strategies: readonly TreeStrategy[];
  /** Told when this process starts running a job, finishes it, or stops (the logs). */
  onJob?: (event: JobEvent) => void;
  /** Whether this process runs the jobs it starts (default); false: a worker runs them (JOB_RUNNER=worker). */
  runsJobs?: boolean;
  /** How long a change's record is kept: the longer of CHANGE_RETENTION_HOURS and HISTORY_RETENTION_DAYS. */
  changeRetentionMs: number;
  /** How long a deleted subtree stays restorable (UNDO_RETENTION_DAYS). */
  undoRetentionMs: number;
  /** Told of the changes this process committed (the live subscribers' wake-up). */
  onChanged?: EngineContext['onChanged'];
  /** The node types writes check (NODE_TYPES). */
  typedData?: EngineContext['typedData'];
}

/** What the stores of one engine share, for one tenant: the options and the jobs run in the background. */
export type EngineParts = EngineOptions &
  Pick<EngineContext, 'background' | 'tenant' | 'runsJobs' | 'access' | 'by'> & {
    /** Waits until the jobs this process runs in the background are done (a CLI's exit, a test's end). */
    drain(): Promise<void>;
    /** The parts of the store of one tenant, for one caller (TreeStore.scoped). */
    scopedTo(scope: StoreScope): EngineParts;
  };

export const nodesOfWith =
  (
    strategy: TreeStrategy,
    options: EngineParts,
    scope: ReadScope | undefined,
    read: EngineContext['getNodes'],
  ): EngineContext['nodesOf'] =>
  async (items, leftOut) =>
    nodesOfItems(strategy, await readOpenJobs(options, scope), items, read, leftOut);

/** The context of the engine's reads and writes, over the parts of one tenant. */
export function contextOf(strategy: TreeStrategy, options: EngineParts, scope: ReadScope | undefined): EngineContext {
  const getNodes = (ids: readonly string[]) => readExistingNodes(options, ids, scope);
  // Object.assign, not a spread: V8 builds `{ ...options, more }` field by field through its
  // runtime (several µs for this many fields), and every request builds this context.
  return Object.assign({}, options, {
    strategy,
    readStored: (ids: readonly string[]) => readStored(options, ids),
    readChildren: (parentId: string) => readChildren(options, parentId),
    queryChildren: (parentId: string, query: Parameters<EngineContext['queryChildren']>[1]) =>
      queryChildren(options, parentId, query),
    getNodes,
    nodesOf: nodesOfWith(strategy, options, scope, getNodes),
    nodeFromItem,
  });
}

/** Jobs by id, as clients see them. */
export async function getJobs(
  ctx: Pick<EngineOptions, 'doc' | 'table'>,
  ids: readonly string[],
): Promise<Map<string, Job>> {
  const items = await batchGetItems(ctx.doc, ctx.table, ids.map(jobKey));
  return new Map([...items.values()].map(jobFromItem).map((job) => [job.id, publicJob(job)]));
}
