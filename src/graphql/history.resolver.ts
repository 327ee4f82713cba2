import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { badInput } from '../errors.js';
import { liveCursorOf, visibleAfter } from '../live/treeChanges.js';
import type { LiveKind } from '../live/window.js';
import { decodeChangeId, type ChangeRecord, type NewestFirstPage, type TreeNode } from '../storage/treeStore.js';
import { checkId, grouped, MAX_PAGE_SIZE } from '../storage/validation.js';
import type { Context } from './context.js';
import { deliveredChange, type Delivered } from './deliveredChange.js';
import { Node } from './node.type.js';
import { TreeChange, TreeChangeConnection } from './treeChange.type.js';

/** The paging of the lists kept newest first: a node's or a tree's history, the deleted nodes. */
@ArgsType()
export class NewestFirstArgs {
  @Field(() => Int, { nullable: true, defaultValue: 20, description: `The page size, 1 to ${grouped(MAX_PAGE_SIZE)}.` })
  first!: number;

  @Field(() => String, {
    nullable: true,
    description: "A cursor of this list (an edge's `cursor`, or `pageInfo.endCursor`): the older entries after it.",
  })
  after?: string | null;
}

/**
 * History: the changes recorded with each write (engine/changes/), newest first, for as long as
 * HISTORY_RETENTION_DAYS keeps them; a node's own, or every change in a tree. A caller sees only
 * changes to nodes it may read where they were or went; a tenant only its own (its store reads
 * only its items).
 */
@Resolver(() => Node)
export class HistoryResolver {
  @FieldResolver(() => TreeChangeConnection, {
    description:
      'The changes made to this node (created, updated, moved, reordered, deleted, restored, copied), newest first, ' +
      'with who made them and what they changed; kept HISTORY_RETENTION_DAYS.',
  })
  async history(
    @Root() node: TreeNode,
    @Args(() => NewestFirstArgs) args: NewestFirstArgs,
    @Ctx() { store, access }: Context,
  ): Promise<Connection> {
    // The store passes over the changes made in trees the caller may not read, before it cuts the page.
    return connection(
      await store.history({ nodeId: node.id }, pageSize(args), args.after),
      args.after,
      await access.readable(),
    );
  }

  @Query(() => TreeChangeConnection, {
    description:
      'Every change in the tree of rootId that you may see (to nodes you may read where they were or went), ' +
      'newest first; each with who made it and what it changed.',
  })
  async treeHistory(
    @Arg('rootId', () => ID, { description: 'The root of the tree.' }) rootId: string,
    @Args(() => NewestFirstArgs) args: NewestFirstArgs,
    @Ctx() { store, access }: Context,
  ): Promise<Connection> {
    checkId(rootId, 'rootId');
    // The store's page holds only what the caller may see.
    return connection(await store.history({ rootId }, pageSize(args), args.after), args.after, await access.readable());
  }

  @Mutation(() => TreeChange, {
    description:
      'Undoes a change: an update takes the old name and data back, a move or reorder puts the node back where it ' +
      'was, a create deletes the node. Refused with CONFLICT (naming the later change) when the node changed ' +
      'since. The answer is the undo, a change of its own: undoing it redoes.',
  })
  async undo(
    @Arg('changeId', () => ID, { description: "The change's id (TreeChange.id, from history)." }) changeId: string,
    @Ctx() ctx: Context,
  ): Promise<Delivered> {
    const { rootId, seq } = decodeChangeId(changeId);
    // A change the caller may not see does not exist for it (the store's check); the write checks its level.
    const record = await ctx.store.undo(rootId, seq);
    ctx.loaders.clearAll();
    const readable = await ctx.access.readable();
    const visible = visibleAfter(record, readable);
    return deliveredChange(
      { record, kind: historyKind(record), cursor: liveCursorOf(ctx.store.changes.cursors, record), visible },
      readable,
    );
  }
}

type Connection = Omit<TreeChangeConnection, 'edges' | 'nodes'> & {
  edges: Array<{ cursor: string; node: Delivered }>;
  nodes: Delivered[];
};

export function pageSize({ first }: { first: number }): number {
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE)
    throw badInput(`first must be in 1..${MAX_PAGE_SIZE}, got ${first}`, { field: 'first' });
  return first;
}

function connection(
  page: NewestFirstPage<ChangeRecord>,
  after: string | null | undefined,
  readable: (chain: readonly string[]) => boolean,
): Connection {
  const edges = page.edges.map(({ node: record, cursor }) => {
    const change = { record, kind: historyKind(record), cursor, visible: visibleAfter(record, readable) };
    return { cursor, node: deliveredChange(change, readable) };
  });
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: after != null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: page.endCursor,
    },
  };
}

/** A change's kind in history: a move among the same siblings is a reorder. */
const historyKind = (record: ChangeRecord): LiveKind =>
  record.kind === 'MOVED' && record.from?.parentId === record.to?.parentId ? 'REORDERED' : record.kind;
