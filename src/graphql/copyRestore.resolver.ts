import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { notFound } from '../errors.js';
import type { TreeNode } from '../storage/treeStore.js';
import { checkId } from '../storage/validation.js';
import { NodeConnection } from './connection.type.js';
import type { Context } from './context.js';
import { CopySubtreeInput, CopySubtreeResult } from './copySubtree.type.js';
import { NewestFirstArgs, pageSize } from './history.resolver.js';
import { Node } from './node.type.js';

/**
 * Copies of subtrees, and the deleted subtrees kept to be restored (storage/engine/undo/): each
 * one call to the store, which writes it whole or not at all, as createNodes does.
 */
@Resolver()
export class CopyRestoreResolver {
  @Mutation(() => CopySubtreeResult, {
    description:
      'Copies a node and its whole subtree under a new parent (or as a new root), with new ids, the same names, ' +
      'data and order: all or none, as one transaction or an IMPORT job no read sees before the copy is whole. ' +
      'Needs read on the source tree and write on the target.',
  })
  async copySubtree(
    @Arg('input', () => CopySubtreeInput, { description: 'What to copy, and where.' }) input: CopySubtreeInput,
    @Ctx() ctx: Context,
  ): Promise<CopySubtreeResult> {
    const source = await ctx.access.visible(await ctx.loaders.nodeById.load(checkId(input.id)));
    if (!source) throw notFound('node', input.id);
    if (input.newParentId == null) ctx.access.requireWriteAll('copying to a new root');
    else await ctx.access.requireWrite(checkId(input.newParentId, 'newParentId'), 'new parent');
    const result = await ctx.store.copySubtree(input);
    ctx.loaders.clearAll();
    ctx.loaders.prime(result.nodes);
    return { node: result.nodes[0] ?? null, job: result.job, copiedCount: result.nodes.length };
  }

  @Mutation(() => Node, {
    description:
      'Brings a deleted node back with its whole subtree (ids, names, data, order), where it was, or under ' +
      'newParentId; for UNDO_RETENTION_DAYS after the delete (then RESTORE_EXPIRED).',
  })
  async restoreNode(
    @Arg('id', () => ID, { description: 'The id of the deleted node.' }) id: string,
    @Arg('newParentId', () => ID, {
      nullable: true,
      description: 'Where the subtree goes back (last among the children); absent: where it was.',
    })
    newParentId: string | null | undefined,
    @Ctx() ctx: Context,
  ): Promise<TreeNode> {
    if (newParentId != null) await ctx.access.requireWrite(checkId(newParentId, 'newParentId'), 'new parent');
    const result = await ctx.store.restoreNode(id, newParentId);
    ctx.loaders.clearAll();
    ctx.loaders.prime(result.nodes);
    return result.nodes[0]!;
  }

  @Query(() => NodeConnection, {
    description:
      'The deleted nodes that restoreNode can bring back (each with its subtree), newest first, as they were ' +
      'when deleted; in trees you may read.',
  })
  async deletedNodes(
    @Args(() => NewestFirstArgs) args: NewestFirstArgs,
    @Ctx() { store }: Context,
  ): Promise<NodeConnection> {
    const page = await store.deletedNodes(pageSize(args), args.after);
    const edges = page.edges.map((e) => ({ cursor: e.cursor, node: e.node.node }));
    return {
      edges,
      nodes: edges.map((e) => e.node),
      pageInfo: {
        hasNextPage: page.hasNextPage,
        hasPreviousPage: args.after != null,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: page.endCursor,
      },
    };
  }
}
