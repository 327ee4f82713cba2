import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '../../dynamodb/batchGet.js';
import { tableAnswers } from '../../dynamodb/table.js';
import type { CursorCodec } from '../cursor.js';
import type { TreeStrategy } from '../strategy.js';
import type { TreeNode, TreeStore } from '../treeStore.js';
import { checkPage, checkWindow } from '../validation.js';
import { childrenPage } from './childrenPage.js';
import type { EngineContext } from './engineContext.js';
import { jobsPage } from './jobsPage.js';
import { jobFromItem, jobKey, publicJob } from './jobRecord.js';
import { startSweeper } from './jobRunner.js';
import * as mutations from './mutations.js';
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
  const getNodes = async (ids: readonly string[]): Promise<Map<string, TreeNode>> => {
    const nodes = new Map<string, TreeNode>();
    for (const [id, s] of await readStored(options, ids)) if (s.deleting === undefined) nodes.set(id, s.node);
    return nodes;
  };
  const ctx: EngineContext = {
    ...options,
    strategy,
    readStored: (ids) => readStored(options, ids),
    readChildren: (parentId) => readChildren(options, parentId),
    getNodes,
  };
  return {
    strategy: strategy.name,
    getNodes,
    children: (parentId, page) => childrenPage(ctx, parentId, page),
    ancestors: (nodes, read) => strategy.ancestors(ctx, nodes, read),
    descendants(node, window, page) {
      checkPage(page);
      checkWindow(window);
      return strategy.descendants(ctx, node, window, page);
    },
    createNode: (args) => mutations.createNode(ctx, args),
    updateNode: (args) => mutations.updateNode(ctx, args),
    moveNode: (args) => mutations.moveNode(ctx, args),
    deleteNode: (args) => mutations.deleteNode(ctx, args),
    async getJobs(ids) {
      const items = await batchGetItems(options.doc, options.table, ids.map(jobKey));
      return new Map([...items.values()].map((item) => [String(item.id), publicJob(jobFromItem(item))]));
    },
    listJobs: (page) => jobsPage(ctx, page),
    startJobs: () => startSweeper(ctx),
    ready: () => tableAnswers(options.doc, options.table),
  };
}
