import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, ID, Info, Query, Resolver } from 'type-graphql';
import { badInput } from '../errors.js';
import type { Job as StoredJob, TreeNode } from '../storage/treeStore.js';
import { checkId, grouped, MAX_PAGE_SIZE } from '../storage/validation.js';
import { NodeConnection, toConnection } from './connection.type.js';
import type { Context } from './context.js';
import { Job, JobConnection } from './job.type.js';
import { fieldsLeftOut, selects } from './lookahead.js';
import { PageArgs } from './node.args.js';
import { Node } from './node.type.js';
import { relayPage } from './relayPage.js';
import { withChangeCursor } from './withChangeCursor.js';

@Resolver()
export class QueryResolver {
  @Query(() => Node, { nullable: true, description: 'null when there is no such node' })
  async node(
    @Arg('id', () => ID, { description: "The node's id." }) id: string,
    @Ctx() { loaders, access, store }: Context,
    @Info() info: GraphQLResolveInfo,
  ): Promise<TreeNode | null> {
    const node = await access.visible(await loaders.nodeById.load(checkId(id)));
    return node && selects(info, 'changeCursor') ? access.visible(await withChangeCursor(store, node)) : node;
  }

  @Query(() => [Node], { nullable: 'items', description: 'Same order as ids, null where missing.' })
  async nodes(
    @Arg('ids', () => [ID], { description: `The ids of the nodes, up to ${grouped(MAX_PAGE_SIZE)}.` }) ids: string[],
    @Ctx() { loaders, access, store }: Context,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Array<TreeNode | null>> {
    if (ids.length > MAX_PAGE_SIZE) throw badInput(`ids may hold at most ${MAX_PAGE_SIZE} ids, got ${ids.length}`);
    ids.forEach((id) => checkId(id));
    const cursored = selects(info, 'changeCursor');
    return Promise.all(
      ids.map(async (id) => {
        const node = await access.visible(await loaders.nodeById.load(id));
        return node && cursored ? access.visible(await withChangeCursor(store, node)) : node;
      }),
    );
  }

  @Query(() => Job, {
    nullable: true,
    description: 'A running job, or one finished in the last 24 hours; null otherwise.',
  })
  async job(
    @Arg('id', () => ID, { description: "The job's id." }) id: string,
    @Ctx() { store, loaders, access }: Context,
  ): Promise<StoredJob | null> {
    const job = (await store.getJobs([checkId(id)])).get(id) ?? null;
    if (!job || access.grants.all !== null) return job;
    // A caller limited to some trees sees the jobs of nodes it may read, and only those.
    return job.nodeId !== null && (await access.visible(await loaders.nodeById.load(job.nodeId))) ? job : null;
  }

  @Query(() => JobConnection, { description: 'Running jobs and those finished in the last 24 hours, oldest first.' })
  async jobs(
    @Args(() => PageArgs) args: PageArgs,
    @Ctx() { store, access }: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    const read = relayPage(args, info);
    // The table's job list is for callers who may read every tree; others use job(id).
    if (access.grants.all === null) return toConnection({ edges: [], hasNextPage: false });
    return toConnection(await store.listJobs(read), read);
  }

  @Query(() => NodeConnection, { description: 'The roots of every tree, in order.' })
  async roots(
    @Args(() => PageArgs) args: PageArgs,
    @Ctx() { store, loaders, access }: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    const read = relayPage(args, info);
    if (access.grants.all !== null)
      return toConnection(
        await loaders.childrenByParent.load({ parentId: null, ...read, leftOut: fieldsLeftOut(info) }),
        read,
      );
    // A caller limited to some trees sees the roots its credentials or grants name, and nothing of the others.
    const granted = await store.access.grantedIds();
    return toConnection(await store.rootsAmong([...new Set([...access.grants.trees.keys(), ...granted])], read), read);
  }
}
