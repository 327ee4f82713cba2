import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql';
import { badInput } from '../errors.js';
import type { Job as StoredJob, TreeNode } from '../storage/treeStore.js';
import { checkId, MAX_PAGE_SIZE } from '../storage/validation.js';
import { NodeConnection, toConnection } from './connection.type.js';
import type { Context } from './context.js';
import { Job, JobConnection } from './job.type.js';
import { PageArgs } from './node.args.js';
import { Node } from './node.type.js';

@Resolver()
export class QueryResolver {
  @Query(() => Node, { nullable: true, description: 'null when there is no such node' })
  async node(@Arg('id', () => ID) id: string, @Ctx() { loaders }: Context): Promise<TreeNode | null> {
    return loaders.nodeById.load(checkId(id));
  }

  @Query(() => [Node], { nullable: 'items', description: 'Same order as ids, null where missing.' })
  async nodes(@Arg('ids', () => [ID]) ids: string[], @Ctx() { loaders }: Context): Promise<Array<TreeNode | null>> {
    if (ids.length > MAX_PAGE_SIZE) throw badInput(`ids may hold at most ${MAX_PAGE_SIZE} ids, got ${ids.length}`);
    ids.forEach((id) => checkId(id));
    return Promise.all(ids.map((id) => loaders.nodeById.load(id)));
  }

  @Query(() => Job, { nullable: true, description: 'A running job, or one finished in the last 24 hours; null otherwise.' })
  async job(@Arg('id', () => ID) id: string, @Ctx() { store }: Context): Promise<StoredJob | null> {
    return (await store.getJobs([checkId(id)])).get(id) ?? null;
  }

  @Query(() => JobConnection, { description: 'Running jobs and those finished in the last 24 hours, oldest first.' })
  async jobs(@Args(() => PageArgs) args: PageArgs, @Ctx() { store }: Context) {
    return toConnection(await store.listJobs({ first: args.first ?? 100, after: args.after }));
  }

  @Query(() => NodeConnection, { description: 'The roots of every tree, in order.' })
  async roots(@Args(() => PageArgs) args: PageArgs, @Ctx() { loaders }: Context) {
    return toConnection(await loaders.childrenByParent.load({ parentId: null, first: args.first ?? 100, after: args.after }));
  }
}
