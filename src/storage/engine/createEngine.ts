import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '../../dynamodb/batchGet.js';
import { tableAnswers } from '../../dynamodb/table.js';
import type { CursorCodec } from '../cursor.js';
import type { TreeStrategy } from '../strategy.js';
import type { TreeStore } from '../treeStore.js';
import { checkPage, checkWindow } from '../validation.js';
import { childrenPage } from './childrenPage.js';
import type { EngineContext } from './engineContext.js';
import { jobsPage } from './jobsPage.js';
import { jobFromItem, jobKey, publicJob } from './jobRecord.js';
import { startSweeper } from './jobRunner.js';
import * as mutations from './mutations.js';
import { readLiveNodes, type ReadScope } from './liveNodes.js';
import { readChildren, readStored } from './reads.js';

export interface EngineOptions {
  doc: DynamoDBDocumentClient;
  table: string;
  maxTreeDepth: number;
  cursors: CursorCodec;
  jobLeaseMs: number;
}

/**
 * The storage interface over one strategy. The engine keeps the truth: node lookups, children
 * pages and every mutation work on node and edge items, with the strategy's guards and
 * projection items riding in the same transactions; ancestors and descendants are the
 * strategy's own reads. Nothing here names a strategy.
 */
export function createEngine(strategy: TreeStrategy, options: EngineOptions): TreeStore {
  return storeOver(strategy, options, undefined);
}

/** The store; with a scope, the request-scoped view that `scoped()` gives. */
function storeOver(strategy: TreeStrategy, options: EngineOptions, scope: ReadScope | undefined): TreeStore {
  const getNodes = (ids: readonly string[]) => readLiveNodes(options, ids, scope);
  const ctx: EngineContext = {
    ...options,
    strategy,
    readStored: (ids) => readStored(options, ids),
    readChildren: (parentId) => readChildren(options, parentId),
    getNodes,
  };
  /** A mutation may open a job: the scope reads the open jobs again. */
  const mutating =
    <A, R>(mutation: (ctx: EngineContext, args: A) => Promise<R>) =>
    async (args: A): Promise<R> => {
      try {
        return await mutation(ctx, args);
      } finally {
        if (scope) delete scope.deleting;
      }
    };
  return {
    strategy: strategy.name,
    scoped: () => storeOver(strategy, options, {}),
    getNodes,
    children: (parentId, page) => childrenPage(ctx, parentId, page),
    ancestors: (nodes, read) => strategy.ancestors(ctx, nodes, read),
    descendants(node, window, page) {
      checkPage(page);
      checkWindow(window);
      return strategy.descendants(ctx, node, window, page);
    },
    createNode: mutating(mutations.createNode),
    updateNode: mutating(mutations.updateNode),
    moveNode: mutating(mutations.moveNode),
    deleteNode: mutating(mutations.deleteNode),
    async getJobs(ids) {
      const items = await batchGetItems(options.doc, options.table, ids.map(jobKey));
      return new Map([...items.values()].map((item) => [String(item.id), publicJob(jobFromItem(item))]));
    },
    listJobs: (page) => jobsPage(ctx, page),
    startJobs: () => startSweeper(ctx),
    ready: () => tableAnswers(options.doc, options.table),
  };
}
