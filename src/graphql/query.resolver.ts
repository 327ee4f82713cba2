import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql';
import { badInput } from '../errors.js';
import type { Job as StoredJob, Page, TreeNode } from '../storage/treeStore.js';
import { checkId, checkPage, MAX_PAGE_SIZE } from '../storage/validation.js';
import { NodeConnection, toConnection } from './connection.type.js';
import type { Context } from './context.js';
import { Job, JobConnection } from './job.type.js';
import { PageArgs } from './node.args.js';
import { Node } from './node.type.js';

@Resolver()
export class QueryResolver {
  @Query(() => Node, { nullable: true, description: 'null when there is no such node' })
  async node(@Arg('id', () => ID) id: string, @Ctx() { loaders, access }: Context): Promise<TreeNode | null> {
    return access.visible(await loaders.nodeById.load(checkId(id)));
  }

  @Query(() => [Node], { nullable: 'items', description: 'Same order as ids, null where missing.' })
  async nodes(@Arg('ids', () => [ID]) ids: string[], @Ctx() { loaders, access }: Context): Promise<Array<TreeNode | null>> {
    if (ids.length > MAX_PAGE_SIZE) throw badInput(`ids may hold at most ${MAX_PAGE_SIZE} ids, got ${ids.length}`);
    ids.forEach((id) => checkId(id));
    return Promise.all(ids.map(async (id) => access.visible(await loaders.nodeById.load(id))));
  }

  @Query(() => Job, { nullable: true, description: 'A running job, or one finished in the last 24 hours; null otherwise.' })
  async job(@Arg('id', () => ID) id: string, @Ctx() { store, loaders, access }: Context): Promise<StoredJob | null> {
    const job = (await store.getJobs([checkId(id)])).get(id) ?? null;
    if (!job || access.grants.all !== null) return job;
    // A caller limited to some trees sees the jobs of nodes it may read, and only those.
    return job.nodeId !== null && (await access.visible(await loaders.nodeById.load(job.nodeId))) ? job : null;
  }

  @Query(() => JobConnection, { description: 'Running jobs and those finished in the last 24 hours, oldest first.' })
  async jobs(@Args(() => PageArgs) args: PageArgs, @Ctx() { store, access }: Context) {
    // The table's job list is for callers who may read every tree; others use job(id).
    if (access.grants.all === null) return toConnection({ edges: [], hasNextPage: false });
    return toConnection(await store.listJobs({ first: args.first ?? 100, after: args.after }));
  }

  @Query(() => NodeConnection, { description: 'The roots of every tree, in order.' })
  async roots(@Args(() => PageArgs) args: PageArgs, @Ctx() { loaders, access }: Context) {
    const first = args.first ?? 100;
    if (access.grants.all !== null) return toConnection(await loaders.childrenByParent.load({ parentId: null, first, after: args.after }));
    return toConnection(await grantedRoots([...access.grants.trees.keys()], first, args.after, loaders));
  }
}

/**
 * The roots a caller limited to some trees may read: those its grants name that exist and are
 * roots, in sibling order, paged by a cursor naming the last root returned. Read from the grants
 * (one batched read), never by filtering the table's roots: no count of the others leaks.
 */
async function grantedRoots(ids: string[], first: number, after: string | null | undefined, loaders: Context['loaders']): Promise<Page> {
  checkPage({ first });
  const roots = (await Promise.all(ids.map((id) => loaders.nodeById.load(id))))
    .filter((node): node is TreeNode => node !== null && node.parentId === null)
    .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1));
  let start = 0;
  if (after != null) {
    const last = grantedRootsCursor.decode(after);
    start = roots.findIndex((root) => root.id === last) + 1;
    if (start === 0) throw badInput('after is not a cursor of these roots');
  }
  const page = roots.slice(start, start + first);
  return { edges: page.map((node) => ({ node, cursor: grantedRootsCursor.encode(node.id) })), hasNextPage: start + first < roots.length };
}

/** Cursors over granted roots: the root's id, as opaque as every cursor. */
const grantedRootsCursor = {
  encode: (id: string): string => Buffer.from(JSON.stringify({ root: id })).toString('base64url'),
  decode(cursor: string): string | null {
    try {
      const { root } = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { root?: unknown };
      return typeof root === 'string' ? root : null;
    } catch {
      return null;
    }
  },
};
