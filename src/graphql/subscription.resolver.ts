import { Arg, Ctx, FieldResolver, ID, Int, Resolver, Root, Subscription } from 'type-graphql';
import type { Caller } from '../auth/caller.js';
import { sameGrants } from '../auth/grants.js';
import { isTreeError, notFound, TreeError } from '../errors.js';
import { openTreeChanges, visibleAfter, type LiveChange, type TreeChangesArgs } from '../live/treeChanges.js';
import type { Job as StoredJob, TreeNode } from '../storage/treeStore.js';
import { createAccess } from './access.js';
import { createLoaders } from '../loaders/createLoaders.js';
import type { Context, LiveContext } from './context.js';
import type { GrantWatcher } from './grantWatch.js';
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
 * The subscription's stream, each step's loaders fresh and dropped after it (a subscription lives
 * long; a loader caches), each delivery counted. The caller's credentials are authenticated again
 * while its connection is open (credentialWatch.ts), its grants on subtrees read again with every
 * subscription of the same caller (grantWatch.ts), and each change goes out only under
 * credentials that hold, filtered by the grants as last checked.
 */
async function subscribeTreeChanges(
  context: Context,
  args: TreeChangesArgs,
): Promise<AsyncIterable<LiveChange | Failure>> {
  const { live, store } = context;
  if (!live) throw new TreeError('BAD_REQUEST', 'subscriptions go over WebSocket (graphql-ws) or Server-Sent Events');
  let changes: AsyncIterableIterator<LiveChange>;
  try {
    // The caller's grants read afresh, as for a request.
    store.access.forget();
    live.readable = await context.access.readable();
    changes = await openTreeChanges(
      {
        store,
        tenant: live.tenant,
        canRead: (chain) => live.readable!(chain),
        readNode: (id) => context.loaders.nodeById.load(id),
        ancestorsOf: (node) => context.loaders.ancestors.load(node),
        hub: live.hub,
        resumeWithinMs: live.resumeWithinMs,
        queueLimit: live.queueLimit,
      },
      args,
    );
  } finally {
    live.release();
  }
  return liveStream(context, live, args.nodeId, changes);
}

/**
 * The changes as delivered: a typed refusal of the stream (SLOW_CONSUMER, or credentials or grants
 * that no longer hold) becomes its last event, an error, then the end: nothing after it, not even
 * a change already queued.
 */
function liveStream(
  context: Context,
  live: LiveContext,
  nodeId: string,
  changes: AsyncIterableIterator<LiveChange>,
): AsyncIterable<LiveChange | Failure> {
  const refusal = refusalOf(changes);
  const stop = watchCaller(context, live, nodeId, refusal.refuse);
  let failed = false;
  const close = () => {
    stop();
    return changes.return!();
  };
  return {
    [Symbol.asyncIterator]: () => ({
      async next(): Promise<IteratorResult<LiveChange | Failure>> {
        if (failed) return { value: undefined, done: true };
        live.release();
        try {
          // The refusal first: it wins over a change already queued.
          const next = await refusal.next();
          if (next.done) stop();
          else {
            await live.connection.current();
            refusal.check();
            live.observe?.delivered(next.value.record.at);
          }
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
 * The stream's watch of its caller: its connection's credential checks, and its caller's grants
 * on subtrees; `refuse` ends the stream. Answers the watch's end.
 */
function watchCaller(context: Context, live: LiveContext, nodeId: string, refuse: (error: unknown) => void) {
  const watcher: GrantWatcher = {
    nodeId,
    readable(readable) {
      live.readable = readable;
      context.store.access.forget();
    },
    gone: refuse,
  };
  let unwatch = live.grants.watch(live.connection.caller, watcher);
  const unfollow = live.connection.follow({
    end: refuse,
    // New grants: the node checked again under them, and watched as theirs.
    accept: (caller, before) =>
      acceptGrants(context, nodeId, caller, before).then((changed) => {
        if (!changed) return;
        unwatch();
        unwatch = live.grants.watch(caller, watcher);
      }, refuse),
  });
  return () => {
    unfollow();
    unwatch();
  };
}

/**
 * A stream's refusal, whichever comes first, and its next change unless refused first: one
 * reaction on the refusal for the stream's whole life (a race per change would leave one behind
 * on it at every change, each holding that change).
 */
function refusalOf(changes: AsyncIterableIterator<LiveChange>) {
  let refusal: { refused: unknown } | undefined;
  let onRefused: ((refusal: { refused: unknown }) => void) | undefined;
  const check = () => {
    if (refusal) throw refusal.refused;
  };
  const refuse = (error: unknown) => {
    if (refusal) return;
    refusal = { refused: error };
    onRefused?.(refusal);
  };
  const next = async (): Promise<IteratorResult<LiveChange>> => {
    check();
    const next = await new Promise<IteratorResult<LiveChange> | { refused: unknown }>((resolve, reject) => {
      onRefused = resolve;
      changes.next().then(resolve, reject);
    }).finally(() => (onRefused = undefined));
    if ('refused' in next) throw next.refused;
    return next;
  };
  return { refuse, check, next };
}

/**
 * A subscriber's credentials checked again: its new grants, taken when they still cover the
 * watched node's tree (where the node is now: it may have moved), else the answer a new
 * subscription would get, NOT_FOUND. Unchanged grants cost nothing; changed ones, one read of
 * the node (and, under adjacency, of its ancestors). Answers whether the grants changed.
 */
async function acceptGrants(context: Context, nodeId: string, caller: Caller, before: Caller): Promise<boolean> {
  if (caller.tenant !== before.tenant) throw notFound('node', nodeId);
  if (sameGrants(caller.grants, before.grants)) return false;
  const loaders = createLoaders(context.store);
  const access = createAccess(caller.grants, context.store.access, loaders, caller.principals);
  if (caller.grants.all === null) {
    const node = await loaders.nodeById.load(nodeId);
    if (!(await access.visible(node))) throw notFound('node', nodeId);
  }
  if (context.live) context.live.readable = await access.readable();
  return true;
}
