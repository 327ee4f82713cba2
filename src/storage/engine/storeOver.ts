import { changeCursors } from '../cursor.js';
import { readChangeStart, readChangesAfter } from './changes/changeLog.js';
import { deletedNodesPage } from './changes/deletedNodesPage.js';
import { historyPage } from './changes/historyPage.js';
import { giveUpNumber } from './changes/recordChanges.js';
import type { TreeStrategy } from '../strategy.js';
import type { CreateNodesArgs, Page, TreeNode, TreeStore } from '../treeStore.js';
import type { EngineContext } from './core/engineContext.js';
import { moveOf } from './core/openJobs.js';
import { contextOf, getJobs, nodesOfWith, type EngineParts } from './engineParts.js';
import { jobsPage } from './jobs/jobsPage.js';
import { childrenPage, rootsAmong } from './reads/childrenPage.js';
import { resolvePath } from './reads/pathLookup.js';
import { childrenTree } from './reads/childrenTrees.js';
import { descendantCounts } from './reads/descendantCounts.js';
import { descendantsPage } from './reads/descendantsPage.js';
import { readOpenJobs, type ReadScope } from './reads/visibleNodes.js';
import { readBarrier } from './reads/readBarrier.js';
import { createNode } from './writes/createNode.js';
import { createNodes } from './writes/createNodes.js';
import { deleteNode } from './writes/deleteNode.js';
import { moveNode } from './writes/moveNode.js';
import { updateNode } from './writes/updateNode.js';
import { undoChange } from './undo/undoChange.js';
import { copySubtree } from './writes/copySubtree.js';
import { restoreNode } from './undo/restoreNode.js';
import { storeAccess } from './sharing/storeAccess.js';

/**
 * The store the resolvers use, over the parts of one tenant; with a scope, the request-scoped
 * view that `scoped()` gives (the open jobs read once per request, and again after a write).
 */
export function storeOver(strategy: TreeStrategy, options: EngineParts, scope: ReadScope | undefined): TreeStore {
  const ctx = contextOf(strategy, options, scope);
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
  const descendantsOfMany = descendantsOfManyOver(ctx, options, scope);
  return {
    strategy: strategy.name,
    scoped: (scope = {}) => storeOver(strategy, options.scopedTo(scope), {}),
    getNodes: ctx.getNodes,
    changes: {
      after: (rootId, after, limit) => readChangesAfter(ctx, rootId, after, limit),
      start: (rootId) => readChangeStart(ctx, rootId),
      giveUp: (rootId, seq) => giveUpNumber(ctx, rootId, seq),
      cursors: changeCursors(ctx.cursors),
    },
    history: (of, first, after) => historyPage(ctx, of, first, after),
    copySubtree: mutating(copySubtree),
    restoreNode: (id, newParentId) => mutating((c, _: null) => restoreNode(c, id, newParentId))(null),
    deletedNodes: (first, after) => deletedNodesPage(ctx, first, after),
    undo: (rootId, seq) => mutating((c, _: null) => undoChange(c, rootId, seq))(null),
    children: (parentId, page, leftOut) => childrenPage(ctx, parentId, page, leftOut),
    rootsAmong: (ids, page) => rootsAmong(ctx, ids, page),
    resolvePath: (rootId, path) => resolvePath(ctx, rootId, path),
    childrenTrees: childrenTreesOver(ctx, options, scope),
    ancestors: (nodes, read) => strategy.ancestors(ctx, nodes, read),
    async descendants(node, window, page, order) {
      const [found] = await descendantsOfMany([{ node, window, page, order }]);
      if (found instanceof Error) throw found;
      return found!;
    },
    descendantsOfMany,
    descendantCounts: (requests) => descendantCounts(ctx, scope, requests),
    createNode: mutating(createNode),
    createNodes: (args, createOptions) => mutating((c, a: CreateNodesArgs) => createNodes(c, a, createOptions))(args),
    updateNode: mutating(updateNode),
    moveNode: mutating(moveNode),
    deleteNode: mutating(deleteNode),
    getJobs: (ids) => getJobs(options, ids),
    pendingJobs: (nodes) => pendingJobs(ctx, options, scope, nodes),
    listJobs: (page) => jobsPage(ctx, page),
    access: storeAccess(ctx),
  };
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * The children trees of several nodes (lookahead), their reads of nodes by id (the origins of
 * windows) in one BatchGet wave (readBarrier.ts), as descendantsOfMany's.
 */
function childrenTreesOver(
  ctx: EngineContext,
  options: EngineParts,
  scope: ReadScope | undefined,
): TreeStore['childrenTrees'] {
  return async (requests) => {
    if (!ctx.strategy.subtreeItems) return requests.map(() => new Map());
    const open = await readOpenJobs(options, scope);
    const barrier = readBarrier(requests.length, ctx.getNodes);
    const nodesOf = nodesOfWith(ctx.strategy, options, scope, barrier.getNodes);
    const shared: EngineContext = Object.assign({}, ctx, { getNodes: barrier.getNodes, nodesOf });
    return Promise.all(
      requests.map((request) =>
        childrenTree(shared, open, request)
          .catch(asError)
          .finally(() => barrier.done()),
      ),
    );
  };
}

/** Several descendants pages, their reads of nodes by id in one BatchGet wave (readBarrier.ts). */
function descendantsOfManyOver(
  ctx: EngineContext,
  options: EngineParts,
  scope: ReadScope | undefined,
): TreeStore['descendantsOfMany'] {
  return async (requests) => {
    const barrier = readBarrier(requests.length, ctx.getNodes);
    const nodesOf = nodesOfWith(ctx.strategy, options, scope, barrier.getNodes);
    const shared: EngineContext = Object.assign({}, ctx, { getNodes: barrier.getNodes, nodesOf });
    return Promise.all(
      requests.map(async (request): Promise<Page | Error> => {
        try {
          return await descendantsPage(shared, scope, request);
        } catch (error) {
          return asError(error);
        } finally {
          barrier.done();
        }
      }),
    );
  };
}

/** For each node, the running job moving the subtree it belongs to, or null (nothing read while no move is open). */
async function pendingJobs(
  ctx: EngineContext,
  options: EngineParts,
  scope: ReadScope | undefined,
  nodes: readonly TreeNode[],
) {
  const open = await readOpenJobs(options, scope);
  if (open.moves.length === 0) return nodes.map(() => null);
  const pathless = nodes.filter((n) => !n.path).map((n) => n.id);
  const read = pathless.length > 0 ? await ctx.getNodes(pathless) : new Map<string, TreeNode>();
  const jobIds = nodes.map((n) => moveOf(open, n.id, n.path ?? read.get(n.id)?.path ?? [])?.id ?? null);
  const jobs = await getJobs(
    options,
    jobIds.filter((id): id is string => id !== null),
  );
  return jobIds.map((id) => {
    const job = id === null ? undefined : jobs.get(id);
    return job?.status === 'RUNNING' ? job : null;
  });
}
