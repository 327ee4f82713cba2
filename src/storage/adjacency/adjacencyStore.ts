import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { callDynamo } from '../../dynamodb/serviceErrors.js';
import type { StoreContext } from '../truth/context.js';
import { resumeDeleteJobs } from '../truth/deleteJob.js';
import * as mutations from '../truth/mutations.js';
import { childrenPage } from '../truth/pages.js';
import { readStored } from '../truth/reads.js';
import type {
  DepthWindow,
  NodeReader,
  Page,
  PageArgs,
  TreeNode,
  TreeStore,
} from '../treeStore.js';
import { ancestorsByWalk } from './ancestors.js';
import { descendantsByLevels } from './descendants.js';

/**
 * Adjacency list: the truth and nothing else. A move writes O(1) items whatever the size of the
 * subtree; ancestors cost one BatchGet wave per level and descendants one wave of child Queries
 * per level. depth and rootId are derived from the parent pointers, never stored.
 */
export class AdjacencyStore implements TreeStore {
  readonly strategy = 'adjacency' as const;

  constructor(private readonly ctx: StoreContext) {}

  async getNodes(ids: readonly string[]): Promise<Map<string, TreeNode>> {
    const stored = await readStored(this.ctx, ids);
    const nodes = new Map<string, TreeNode>();
    for (const [id, s] of stored) if (s.deleting === undefined) nodes.set(id, s.node);
    return nodes;
  }

  children(parentId: string | null, page: PageArgs): Promise<Page> {
    return childrenPage(this.ctx, parentId, page);
  }

  ancestors(nodes: readonly TreeNode[], read: NodeReader): Promise<TreeNode[][]> {
    return ancestorsByWalk(nodes, read, this.ctx.maxDepth);
  }

  descendants(node: TreeNode, window: DepthWindow, page: PageArgs): Promise<Page> {
    return descendantsByLevels(this.ctx, node, window, page);
  }

  createNode = (args: Parameters<TreeStore['createNode']>[0]) => mutations.createNode(this.ctx, args);
  updateNode = (args: Parameters<TreeStore['updateNode']>[0]) => mutations.updateNode(this.ctx, args);
  moveNode = (args: Parameters<TreeStore['moveNode']>[0]) => mutations.moveNode(this.ctx, args);
  deleteNode = (args: Parameters<TreeStore['deleteNode']>[0]) => mutations.deleteNode(this.ctx, args);

  async resumePendingWork(): Promise<void> {
    await resumeDeleteJobs(this.ctx);
  }

  async ready(): Promise<boolean> {
    try {
      await callDynamo(() => this.ctx.doc.send(new DescribeTableCommand({ TableName: this.ctx.table })));
      return true;
    } catch {
      return false;
    }
  }
}
