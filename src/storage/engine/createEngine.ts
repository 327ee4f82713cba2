import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '../../dynamodb/batchGet.js';
import { meteredDoc } from '../../dynamodb/costMeter.js';
import { tenantDoc } from '../../dynamodb/tenantDoc.js';
import { tableAnswers } from '../../dynamodb/table.js';
import type { CursorCodec } from '../cursor.js';
import type { TreeStrategy } from '../strategy.js';
import type { CreateNodesArgs, DescendantsRequest, Job, OperationCost, Page, TreeNode, TreeStore } from '../treeStore.js';
import { checkPage, checkWindow } from '../validation.js';
import { childrenPage, rootsAmong } from './reads/childrenPage.js';
import { childrenTree } from './reads/childrenTrees.js';
import type { EngineContext, JobEvent, TreeAccess } from './core/engineContext.js';
import { jobsPage } from './jobs/jobsPage.js';
import { jobFromItem, jobKey, publicJob } from './jobs/jobRecord.js';
import { listedTenants, startSweeper, sweepTenants, takeUpJob } from './jobs/jobRunner.js';
import { createNodes } from './writes/createNodes.js';
import { crowdedParents, respaceChildren } from './writes/respace.js';
import { startReindex } from './jobs/startReindex.js';
import { createNode } from './writes/createNode.js';
import { deleteNode } from './writes/deleteNode.js';
import { moveNode } from './writes/moveNode.js';
import { updateNode } from './writes/updateNode.js';
import { descendantsFromTruth } from './reads/descendantsFromTruth.js';
import { preorderPage } from './reads/preorderPage.js';
import { nodesOfItems, readLiveNodes, readOpenJobs, type ReadScope } from './reads/liveNodes.js';
import { moveBelow, moveOf, projectionSettled } from './core/openJobs.js';
import { queryChildren, readChildren, readStored } from './core/reads.js';
import { readBarrier } from './reads/readBarrier.js';

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
}

/**
 * The storage interface over one strategy. The engine keeps the truth: node lookups, children
 * pages and every mutation work on node and edge items, with the strategy's guards and
 * projection items riding in the same transactions; ancestors and descendants are the
 * strategy's own reads. Nothing here names a strategy.
 */
export function createEngine(strategy: TreeStrategy, options: EngineOptions): TreeStore {
  const running = new Set<Promise<unknown>>();
  const background = (work: Promise<unknown>) => {
    running.add(work);
    void work.finally(() => running.delete(work));
  };
  const settle = async () => {
    while (running.size > 0) await Promise.allSettled([...running]);
  };
  const root: EngineParts = { ...options, doc: tenantDoc(options.doc, null), tenant: null, runsJobs: options.runsJobs ?? true, background, settle, forTenant };
  function forTenant(tenant: string | null, cost?: OperationCost, treeAccess?: TreeAccess): EngineParts {
    const doc = cost ? meteredDoc(options.doc, cost) : options.doc;
    const cursors = tenant === null ? options.cursors : options.cursors.forTenant(tenant);
    return Object.assign({}, root, { doc: tenantDoc(doc, tenant), tenant, cursors }, treeAccess ? { treeAccess } : {});
  }
  return storeOver(strategy, root, undefined);
}

/**
 * One page of descendants. By depth: the strategy's read; while a move job is open below the
 * node, from the truth (descendantsFromTruth.ts), which answers as if the job were done. In
 * document order: from the truth's edges under every strategy (preorderPage.ts).
 */
async function descendantsPage(
  ctx: EngineContext,
  scope: ReadScope | undefined,
  { node, window, page, order }: DescendantsRequest,
): Promise<Page> {
  checkPage(page);
  checkWindow(window);
  // No node lies deeper below another than the tree's depth limit: such a window is empty, read
  // nothing for it; a bound past it is the limit (the strategies' keys need not go further).
  if (window.minDepth > ctx.maxTreeDepth) return { edges: [], hasNextPage: false };
  if (order === 'PREORDER') {
    const settled = ctx.strategy.preorder && projectionSettled(await readOpenJobs(ctx, scope), ctx.strategy.name);
    return (settled && (await ctx.strategy.preorder!(ctx, node, window, page))) || preorderPage(ctx, node, window, page);
  }
  const bounded = window.maxDepth !== null && window.maxDepth > ctx.maxTreeDepth ? { ...window, maxDepth: ctx.maxTreeDepth } : window;
  const { strategy } = ctx;
  const found = await strategy.descendants(ctx, node, bounded, page);
  if (!strategy.descendantSortKey) return found;
  // The strategy's read loaded the open jobs into the scope (with the page's nodes).
  const open = await readOpenJobs(ctx, scope);
  if (open.moves.length === 0) return found;
  const origin = node.path ? node : (await ctx.getNodes([node.id])).get(node.id);
  if (!origin?.path || !moveBelow(open, origin.id, origin.path)) return found;
  return descendantsFromTruth(ctx, { ...origin, path: origin.path }, bounded, page);
}

async function getJobs(ctx: Pick<EngineOptions, 'doc' | 'table'>, ids: readonly string[]): Promise<Map<string, Job>> {
  const items = await batchGetItems(ctx.doc, ctx.table, ids.map(jobKey));
  return new Map([...items.values()].map((item) => [String(item.id), publicJob(jobFromItem(item))]));
}

type EngineParts = EngineOptions &
  Pick<EngineContext, 'background' | 'tenant' | 'runsJobs' | 'treeAccess'> & {
    settle(): Promise<void>;
    /** The parts of one tenant's store (its keys, its cursors), its calls added to `cost` when given. */
    forTenant(tenant: string | null, cost?: OperationCost, treeAccess?: TreeAccess): EngineParts;
  };

const nodesOfWith =
  (strategy: TreeStrategy, options: EngineParts, scope: ReadScope | undefined, read: EngineContext['getNodes']): EngineContext['nodesOf'] =>
  async (items) =>
    nodesOfItems(strategy, await readOpenJobs(options, scope), items, read);

/** The context of the engine's reads and writes, over the parts of one tenant. */
function contextOf(strategy: TreeStrategy, options: EngineParts, scope: ReadScope | undefined): EngineContext {
  const getNodes = (ids: readonly string[]) => readLiveNodes(options, ids, scope);
  // Object.assign, not a spread: V8 builds `{ ...options, more }` field by field through its
  // runtime (several µs for this many fields), and every request builds this context.
  return Object.assign({}, options, {
    strategy,
    readStored: (ids: readonly string[]) => readStored(options, ids),
    readChildren: (parentId: string) => readChildren(options, parentId),
    queryChildren: (parentId: string, query: { after?: string; limit?: number }) => queryChildren(options, parentId, query),
    getNodes,
    nodesOf: nodesOfWith(strategy, options, scope, getNodes),
  });
}

/** The store; with a scope, the request-scoped view that `scoped()` gives. */
function storeOver(strategy: TreeStrategy, options: EngineParts, scope: ReadScope | undefined): TreeStore {
  const ctx = contextOf(strategy, options, scope);
  const { getNodes } = ctx;
  const tenantContext = (tenant: string) => contextOf(strategy, options.forTenant(tenant), undefined);
  /** A mutation may open a job: the scope reads the open jobs again. */
  const mutating =
    <A, R>(mutation: (ctx: EngineContext, args: A) => Promise<R>) =>
    async (args: A): Promise<R> => {
      try {
        return await mutation(ctx, args);
      } finally {
        if (scope) delete scope.open;
      }
    };
  const descendantsOfMany: TreeStore['descendantsOfMany'] = async (requests) => {
    const barrier = readBarrier(requests.length, getNodes);
    const shared: EngineContext = Object.assign({}, ctx, { getNodes: barrier.getNodes, nodesOf: nodesOfWith(strategy, options, scope, barrier.getNodes) });
    return Promise.all(
      requests.map(async (request) => {
        try {
          return await descendantsPage(shared, scope, request);
        } catch (error) {
          return error instanceof Error ? error : new Error(String(error));
        } finally {
          barrier.done();
        }
      }),
    );
  };
  return {
    strategy: strategy.name,
    scoped: (cost, tenant = null, treeAccess) => storeOver(strategy, options.forTenant(tenant, cost, treeAccess), {}),
    getNodes,
    children: (parentId, page) => childrenPage(ctx, parentId, page),
    rootsAmong: (ids, page) => rootsAmong(ctx, ids, page),
    async childrenTrees(requests) {
      if (!strategy.subtreeItems) return requests.map(() => new Map());
      const open = await readOpenJobs(options, scope);
      return Promise.all(
        requests.map((request) =>
          childrenTree(ctx, open, request).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
        ),
      );
    },
    ancestors: (nodes, read) => strategy.ancestors(ctx, nodes, read),
    async descendants(node, window, page, order) {
      const [found] = await descendantsOfMany([{ node, window, page, order }]);
      if (found instanceof Error) throw found;
      return found!;
    },
    descendantsOfMany,
    createNode: mutating(createNode),
    createNodes: (args, options) => mutating((c, a: CreateNodesArgs) => createNodes(c, a, options))(args),
    updateNode: mutating(updateNode),
    moveNode: mutating(moveNode),
    deleteNode: mutating(deleteNode),
    getJobs: (ids) => getJobs(options, ids),
    async pendingJobs(nodes) {
      const open = await readOpenJobs(options, scope);
      if (open.moves.length === 0) return nodes.map(() => null);
      const pathless = nodes.filter((n) => !n.path).map((n) => n.id);
      const read = pathless.length > 0 ? await getNodes(pathless) : new Map<string, TreeNode>();
      const jobIds = nodes.map((n) => moveOf(open, n.id, n.path ?? read.get(n.id)?.path ?? [])?.id ?? null);
      const jobs = await getJobs(options, jobIds.filter((id): id is string => id !== null));
      return jobIds.map((id) => {
        const job = id === null ? undefined : jobs.get(id);
        return job?.status === 'RUNNING' ? job : null;
      });
    },
    listJobs: (page) => jobsPage(ctx, page),
    async openJobCount() {
      const [own, tenants] = await Promise.all([readOpenJobs(options), listedTenants(ctx)]);
      const theirs = await Promise.all(tenants.map(async (tenant) => (await readOpenJobs(options.forTenant(tenant))).count));
      return theirs.reduce((sum, count) => sum + count, own.count);
    },
    reindex: (target) => startReindex(ctx, target),
    respace: mutating(respaceChildren),
    crowdedParents: (longerThan) => crowdedParents(ctx, longerThan),
    takeUpJob: (jobId) => takeUpJob(ctx, jobId),
    sweepJobs: () => sweepTenants(ctx, tenantContext),
    startJobs() {
      const sweeper = startSweeper(ctx, tenantContext);
      return {
        async stop() {
          await sweeper.stop();
          await options.settle();
        },
      };
    },
    ready: () => tableAnswers(options.doc, options.table),
  };
}
