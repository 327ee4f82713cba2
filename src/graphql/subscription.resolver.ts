import { Arg, Ctx, FieldResolver, ID, Int, Resolver, Root, Subscription } from 'type-graphql';
import type { Caller } from '../auth/caller.js';
import { watchCredentials } from '../auth/credentialWatch.js';
import { sameGrants } from '../auth/grants.js';
import { isTreeError, notFound, TreeError } from '../errors.js';
import { openTreeChanges, visibleAfter, type LiveChange, type TreeChangesArgs } from '../live/treeChanges.js';
import type { Job as StoredJob, TreeNode } from '../storage/treeStore.js';
import { createAccess } from './access.js';
import type { Context } from './context.js';
import { watchGrants } from './grantWatch.js';
import { Job } from './job.type.js';
import { Node } from './node.type.js';
import { TreeChange } from './treeChange.type.js';
import { deliveredChange, type Delivered } from './deliveredChange.js';

@Resolver(() => TreeChange)
export class SubscriptionResolver {
  @Subscription(() => TreeChange, {
    description:
      'Changes within the subtree of nodeId (to maxDepth levels below it; null: all), in commit order per tree, ' +
      'each with its cursor. With after (the cursor of the last change seen): every later change once, then the ' +
      'live ones. Over GraphQL over WebSocket (graphql-ws) or Server-Sent Events (graphql-sse), at /graphql.',
    subscribe: ({ args, context }) => subscribeTreeChanges(context as Context, args as TreeChangesArgs),
  })
  treeChanges(
    @Root() change: LiveChange | Failure,
    @Arg('nodeId', () => ID, { description: 'The root of the watched subtree.' }) _nodeId: string,
    @Arg('maxDepth', () => Int, {
      nullable: true,
      description: 'Levels below nodeId to watch (0: the node alone); null: the whole subtree.',
    })
    _maxDepth: number | null,
    @Arg('after', () => String, {
      nullable: true,
      description: 'The cursor of the last change seen: resume after it (RESYNC_REQUIRED past the retention).',
    })
    _after: string | null,
    @Ctx() { live }: Context,
  ): Delivered {
    // The stream's end with a refusal (SLOW_CONSUMER, credentials that no longer hold): its event is the typed error.
    if ('failure' in change) throw change.failure;
    // The caller's grants as last checked, which may be narrower than when the change was read.
    const readable = live?.readable ?? (() => false);
    return deliveredChange({ ...change, visible: change.visible && visibleAfter(change.record, readable) }, readable);
  }

  @FieldResolver(() => Node, {
    nullable: true,
    description: 'The node after the change; null when it is gone or in a tree you may not read.',
  })
  node(@Root() change: Delivered): TreeNode | null {
    const { record, visible } = change.live;
    if (!visible || !record.node) return null;
    const path = record.to?.path ?? record.from?.path ?? [];
    return { ...record.node, depth: path.length, rootId: path[0] ?? record.nodeId };
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: "Nodes the change touched: a created, deleted or moved-in subtree's, or an import's; else null.",
  })
  async count(@Root() change: Delivered, @Ctx() { loaders }: Context): Promise<number | null> {
    // Only where every strategy knows it: a move's record has the subtree's size only when the
    // move read its subtree (not under adjacency), so a move in is counted when it is missing.
    if (!COUNTED.has(change.kind)) return null;
    if (change.count !== null || change.kind !== 'MOVED_IN') return change.count;
    const node = this.node(change);
    return node ? 1 + (await loaders.descendantCount.load({ node, maxDepth: null })) : null;
  }

  @FieldResolver(() => Job, {
    nullable: true,
    description: 'The job of a JOB_PROGRESS or JOB_DONE change, or of a big delete.',
  })
  async job(@Root() change: Delivered, @Ctx() { store }: Context): Promise<StoredJob | null> {
    const id = change.live.record.job?.id;
    return id ? ((await store.getJobs([id])).get(id) ?? null) : null;
  }
}

/** The kinds whose count a subscriber gets: a created, deleted or moved-in subtree's size, an import's nodes. */
const COUNTED = new Set(['CREATED', 'RESTORED', 'COPIED', 'DELETED', 'MOVED_IN', 'JOB_DONE']);

/** A stream that ended with a typed refusal: delivered as a last event whose resolver throws it. */
type Failure = { failure: TreeError };

/**
 * The subscription's stream, each change's loaders fresh (a subscription lives long; a loader
 * caches), each delivery counted. The caller's credentials are authenticated again while it is
 * open (credentialWatch.ts), and each change goes out only under credentials that hold, filtered
 * by the grants as last checked. A typed refusal of the stream (SLOW_CONSUMER, or credentials
 * that no longer hold) becomes its last event, an error, then the end: nothing after it, not even
 * a change already queued.
 */
async function subscribeTreeChanges(
  context: Context,
  args: TreeChangesArgs,
): Promise<AsyncIterable<LiveChange | Failure>> {
  const { live, store, loaders } = context;
  if (!live) throw new TreeError('BAD_REQUEST', 'subscriptions go over WebSocket (graphql-ws) or Server-Sent Events');
  live.readable = await context.access.readable();
  const changes = await openTreeChanges(
    {
      store,
      tenant: live.tenant,
      canRead: (chain) => live.readable!(chain),
      readNode: (id) => loaders.nodeById.load(id),
      ancestorsOf: (node) => loaders.ancestors.load(node),
      hub: live.hub,
      resumeWithinMs: live.resumeWithinMs,
      queueLimit: live.queueLimit,
    },
    args,
  );
  const credentials = watchCredentials({
    caller: live.caller,
    authenticate: () => live.reauthenticate(),
    accept: (caller, before) => acceptGrants(context, args.nodeId, caller, before),
  });
  const grants = watchGrants({ ...context, live }, args.nodeId);
  // One reaction on the refusal for the stream's whole life (a race per change would leave one
  // behind on it at every change, each holding that change).
  let refusal: { refused: unknown } | undefined;
  let onRefused: ((refusal: { refused: unknown }) => void) | undefined;
  void Promise.race([credentials.ended, grants.ended]).then((error) => {
    refusal = { refused: error };
    onRefused?.(refusal);
  });
  const nextOrRefusal = () =>
    refusal ??
    new Promise<IteratorResult<LiveChange> | { refused: unknown }>((resolve, reject) => {
      onRefused = resolve;
      changes.next().then(resolve, reject);
    }).finally(() => (onRefused = undefined));
  let failed = false;
  const close = () => {
    credentials.stop();
    grants.stop();
    return changes.return!();
  };
  return {
    [Symbol.asyncIterator]: () => ({
      async next(): Promise<IteratorResult<LiveChange | Failure>> {
        if (failed) return { value: undefined, done: true };
        try {
          // The refusal first: it wins over a change already queued.
          const next = await nextOrRefusal();
          if ('refused' in next) throw next.refused;
          if (next.done) {
            credentials.stop();
            grants.stop();
          } else await credentials.current();
          loaders.clearAll();
          if (!next.done) live.observe?.delivered(next.value.record.at);
          return next;
        } catch (error) {
          if (!isTreeError(error)) throw error;
          failed = true;
          if (isTreeError(error, 'SLOW_CONSUMER')) live.observe?.dropped();
          await close();
          return { value: { failure: error }, done: false };
        }
      },
      return: close,
    }),
  };
}

/**
 * A subscriber's credentials checked again: its new grants, taken when they still cover the
 * watched node's tree (where the node is now: it may have moved), else the answer a new
 * subscription would get, NOT_FOUND. Unchanged grants cost nothing; changed ones, one read of
 * the node (and, under adjacency, of its ancestors).
 */
async function acceptGrants(context: Context, nodeId: string, caller: Caller, before: Caller): Promise<void> {
  if (caller.tenant !== before.tenant) throw notFound('node', nodeId);
  if (sameGrants(caller.grants, before.grants)) return;
  const access = createAccess(caller.grants, context.store.access, context.loaders, caller.principals);
  if (caller.grants.all === null) {
    const node = await context.loaders.nodeById.clear(nodeId).load(nodeId);
    if (!(await access.visible(node))) throw notFound('node', nodeId);
  }
  context.access = access;
  if (context.live) context.live.readable = await access.readable();
}
