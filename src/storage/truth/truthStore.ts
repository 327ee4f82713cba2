import type { StrategyName } from '../../config.js';
import { tableAnswers } from '../../dynamodb/table.js';
import type { DepthWindow, NodeReader, Page, PageArgs, TreeNode, TreeStore } from '../treeStore.js';
import type { StoreContext } from './context.js';
import { resumeDeleteJobs } from './deleteJob.js';
import * as mutations from './mutations.js';
import { childrenPage } from './pages.js';
import { readStored } from './reads.js';

/**
 * What every strategy shares: node lookups, children pages and the mutations all work on the
 * truth (with the strategy's projection riding in the same transactions). A strategy adds how
 * it reads ancestors and descendants.
 */
export abstract class TruthStore implements TreeStore {
  abstract readonly strategy: StrategyName;

  constructor(protected readonly ctx: StoreContext) {}

  abstract ancestors(nodes: readonly TreeNode[], read: NodeReader): Promise<TreeNode[][]>;
  abstract descendants(node: TreeNode, window: DepthWindow, page: PageArgs): Promise<Page>;

  async getNodes(ids: readonly string[]): Promise<Map<string, TreeNode>> {
    const stored = await readStored(this.ctx, ids);
    const nodes = new Map<string, TreeNode>();
    for (const [id, s] of stored) if (s.deleting === undefined) nodes.set(id, s.node);
    return nodes;
  }

  children(parentId: string | null, page: PageArgs): Promise<Page> {
    return childrenPage(this.ctx, parentId, page);
  }

  createNode = (args: Parameters<TreeStore['createNode']>[0]) => mutations.createNode(this.ctx, args);
  updateNode = (args: Parameters<TreeStore['updateNode']>[0]) => mutations.updateNode(this.ctx, args);
  moveNode = (args: Parameters<TreeStore['moveNode']>[0]) => mutations.moveNode(this.ctx, args);
  deleteNode = (args: Parameters<TreeStore['deleteNode']>[0]) => mutations.deleteNode(this.ctx, args);

  async resumePendingWork(): Promise<void> {
    await resumeDeleteJobs(this.ctx);
  }

  ready(): Promise<boolean> {
    return tableAnswers(this.ctx.doc, this.ctx.table);
  }
}
