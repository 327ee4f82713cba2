import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Resolver, Root } from 'type-graphql';
import type { Job, TreeNode } from '../storage/treeStore.js';
import { Job as JobType } from './job.type.js';
import { checkPage } from '../storage/validation.js';
import { EMPTY_PAGE, NodeConnection, toConnection } from './connection.type.js';
import type { Context } from './context.js';
import { fieldsLeftOut, listLeftOut, nestedChildren } from './lookahead.js';
import { DescendantsArgs, PageArgs } from './node.args.js';
import { Node } from './node.type.js';
import { relayPage } from './relayPage.js';

/** The tree fields of Node: thin, over the request's loaders and the storage interface. */
@Resolver(() => Node)
export class NodeResolver {
  @FieldResolver(() => Node, {
    nullable: true,
    description: 'Its parent; null for a root, and for the top of what you may read (docs/security.md).',
  })
  async parent(@Root() node: TreeNode, @Ctx() { loaders, access }: Context): Promise<TreeNode | null> {
    return node.parentId === null ? null : access.visible(await loaders.nodeById.load(node.parentId));
  }

  @FieldResolver(() => ID, { description: "Id of the root of this node's tree." })
  async rootId(@Root() node: TreeNode, @Ctx() { loaders }: Context): Promise<string> {
    if (node.rootId !== undefined) return node.rootId;
    const chain = await loaders.ancestors.load(node);
    return chain[0]?.id ?? node.id;
  }

  @FieldResolver(() => Int, { description: '0 for a root.' })
  async depth(@Root() node: TreeNode, @Ctx() { loaders }: Context): Promise<number> {
    if (node.depth !== undefined) return node.depth;
    return (await loaders.ancestors.load(node)).length;
  }

  @FieldResolver(() => NodeConnection, { description: 'Direct children, in sibling order.' })
  async children(
    @Root() node: TreeNode,
    @Args(() => PageArgs) args: PageArgs,
    @Ctx() { loaders }: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    const read = relayPage(args, info);
    if (node.childCount === 0 && read.after == null) {
      checkPage(read);
      return toConnection(EMPTY_PAGE);
    }
    return toConnection(await loaders.children(node, read, () => nestedChildren(info), fieldsLeftOut(info)), read);
  }

  @FieldResolver(() => [Node], {
    description:
      'Root first, parent last. Empty for a root. Those you may read: from the top of what is shared with you.',
  })
  async ancestors(@Root() node: TreeNode, @Ctx() { loaders, access }: Context): Promise<TreeNode[]> {
    const chain = await loaders.ancestors.load(node);
    if (access.grants.all !== null || chain.length === 0) return chain;
    // What the caller may read of a chain is a tail of it: a grant is inherited below its node.
    const readable = await access.readable();
    const ids = chain.map((n) => n.id);
    const top = ids.findIndex((_, i) => readable(ids.slice(0, i + 1)));
    return top < 0 ? [] : chain.slice(top);
  }

  @FieldResolver(() => JobType, {
    nullable: true,
    description:
      "The open job moving this node's subtree (this node or one of its ancestors is being moved), if any: " +
      'every read already answers as if it were done. null when none.',
  })
  async pendingJob(@Root() node: TreeNode, @Ctx() { loaders }: Context): Promise<Job | null> {
    return loaders.pendingJob.load(node);
  }

  @FieldResolver(() => NodeConnection, {
    description:
      'Nodes whose depth d relative to this one satisfies minDepth <= d <= maxDepth ' +
      '(maxDepth null: no bound; minDepth 0 includes this node). In `order`: BY_DEPTH (the default) by depth ' +
      'ascending, within one depth in a stable order that the storage strategy defines; PREORDER in document ' +
      'order. Cursor pagination across the whole window; a cursor belongs to its order.',
  })
  async descendants(
    @Root() node: TreeNode,
    @Args(() => DescendantsArgs) args: DescendantsArgs,
    @Ctx() { loaders }: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    const read = relayPage(args, info);
    const page = await loaders.descendants.load({
      node,
      window: { minDepth: args.minDepth ?? 1, maxDepth: args.maxDepth ?? null },
      page: read,
      order: args.order ?? 'BY_DEPTH',
      leftOut: listLeftOut(info),
    });
    return toConnection(page, read);
  }

  @FieldResolver(() => Int, {
    description:
      'How many nodes lie 1 to maxDepth levels below this one (maxDepth null: its whole subtree; 0: none; ' +
      '1: its childCount; a bound past MAX_TREE_DEPTH counts as it). Exact, and as every read answers: ' +
      'as if every accepted change were complete, even while a job moves or deletes a subtree.',
  })
  async descendantCount(
    @Root() node: TreeNode,
    @Arg('maxDepth', () => Int, {
      nullable: true,
      description: 'The deepest depth counted, relative to this node: at least 0; null: no bound.',
    })
    maxDepth: number | null | undefined,
    @Ctx() { loaders }: Context,
  ): Promise<number> {
    return loaders.descendantCount.load({ node, maxDepth: maxDepth ?? null });
  }
}
