import { Arg, Args, Ctx, Mutation, Resolver } from 'type-graphql';
import type { TreeNode } from '../storage/treeStore.js';
import { checkId, grouped, MAX_CREATE_NODES } from '../storage/validation.js';
import { DeleteResult } from './deleteResult.type.js';
import type { Context } from './context.js';
import { CreateNodesResult } from './createNodesResult.type.js';
import { CreateNodeInput, CreateNodesInput, DeleteNodeArgs, ReparentArgs, UpdateNodeArgs } from './node.args.js';
import { Node } from './node.type.js';

/**
 * Every mutation is one call to the store, which commits it whole or not at all, after the
 * caller's grants allow it (access.ts). The request's loaders are cleared afterwards: what they
 * cached may describe the tree before the change.
 */
@Resolver()
export class MutationResolver {
  @Mutation(() => Node, {
    description:
      'Creates a node under a parent (or as a root), among its siblings where before/after say (default: last).',
  })
  async createNode(
    @Arg('input', () => CreateNodeInput, { description: 'The node, and where it goes.' }) input: CreateNodeInput,
    @Ctx() ctx: Context,
  ): Promise<TreeNode> {
    if (input.parentId == null) ctx.access.requireWriteAll('creating a root');
    else await ctx.access.requireWrite(checkId(input.parentId, 'parentId'), 'parent');
    return primed(ctx, await ctx.store.createNode(input));
  }

  @Mutation(() => CreateNodesResult, {
    description:
      `Creates up to ${grouped(MAX_CREATE_NODES)} nodes ` +
      '(a subtree, or several, given as a list whose nodes name their parent in it) under one parent: ' +
      'all or none. In one transaction when they fit, otherwise as an IMPORT job that the ' +
      'mutation waits for; no read sees any of them before all are there.',
  })
  async createNodes(
    @Arg('input', () => CreateNodesInput, { description: 'The nodes, and the parent they go under.' })
    input: CreateNodesInput,
    @Ctx() ctx: Context,
  ): Promise<CreateNodesResult> {
    if (input.parentId == null) ctx.access.requireWriteAll('creating roots');
    else await ctx.access.requireWrite(checkId(input.parentId, 'parentId'), 'parent');
    const result = await ctx.store.createNodes(input);
    ctx.loaders.clearAll();
    ctx.loaders.prime(result.nodes);
    return result;
  }

  @Mutation(() => Node, { description: 'Renames a node and/or sets its data; its place in the tree stays.' })
  async updateNode(@Args(() => UpdateNodeArgs) args: UpdateNodeArgs, @Ctx() ctx: Context): Promise<TreeNode> {
    await ctx.access.requireWrite(checkId(args.id), 'node');
    return primed(ctx, await ctx.store.updateNode(args));
  }

  @Mutation(() => Node, {
    description:
      'Moves the node and its whole subtree. newParentId null (or absent) makes it a root; newParentId = the ' +
      'current parent with before/after reorders among the same siblings. before/after place it among its new ' +
      'siblings (default: last).',
  })
  async reparent(@Args(() => ReparentArgs) args: ReparentArgs, @Ctx() ctx: Context): Promise<TreeNode> {
    await ctx.access.requireWrite(checkId(args.id), 'node');
    if (args.newParentId == null) ctx.access.requireWriteAll('making a node a root');
    else await ctx.access.requireWrite(checkId(args.newParentId, 'newParentId'), 'new parent');
    return primed(ctx, await ctx.store.moveNode(args));
  }

  @Mutation(() => DeleteResult, { description: 'Deletes the node and its whole subtree.' })
  async deleteNode(@Args(() => DeleteNodeArgs) args: DeleteNodeArgs, @Ctx() ctx: Context): Promise<DeleteResult> {
    await ctx.access.requireWrite(checkId(args.id), 'node');
    const result = await ctx.store.deleteNode(args);
    ctx.loaders.clearAll();
    return { deletedCount: result.deletedCount, job: result.job ?? null };
  }
}

function primed(ctx: Context, node: TreeNode): TreeNode {
  ctx.loaders.clearAll();
  ctx.loaders.prime([node]);
  return node;
}
