import { HOUR_MS } from '../durations.js';
import { TreeError, badInput, notFound } from '../errors.js';
import type { ChangeCursor, ChangeCursors, ChangeRecord, TreeNode, TreeStore } from '../storage/treeStore.js';
import type { ChangeHub, HubSubscriber } from './changeHub.js';
import { seenBy, treeOf, type LiveKind, type Watch } from './window.js';

/** A change as one subscriber receives it. */
export interface LiveChange {
  record: ChangeRecord;
  kind: LiveKind;
  /** Where to resume after this change (`after`). */
  cursor: string;
  /** Whether the caller may read the tree the node is in after the change (else: out of sight). */
  visible: boolean;
}

export interface TreeChangesArgs {
  nodeId: string;
  maxDepth?: number | null;
  after?: string | null;
}

/** What a subscription needs of the server: the caller's store and grants, the hub, the limits. */
export interface LiveScope {
  /** The caller's store (its tenant). */
  store: TreeStore;
  tenant: string | null;
  /**
   * Whether the caller may read the node of a chain (its ancestors' ids, root first, then its
   * own), as its grants were last read: a subscription reads them again every GRANTS_CACHE_MS.
   */
  canRead(chain: readonly string[]): boolean;
  /** The caller's reads of nodes and their ancestors. */
  readNode(id: string): Promise<TreeNode | null>;
  ancestorsOf(node: TreeNode): Promise<TreeNode[]>;
  hub: ChangeHub;
  /** CHANGE_RETENTION_HOURS, in ms: an older cursor is refused (RESYNC_REQUIRED). */
  resumeWithinMs: number;
  /** Changes queued for a subscriber that reads too slowly before it is closed (SLOW_CONSUMER). */
  queueLimit: number;
}

/**
 * The changes in the subtree of `nodeId` (to `maxDepth` below it), in the order of its tree's
 * log, each once: after the cursor `after` (every change since, then the live ones), or every
 * change committed from now on (one in flight now included: changeLog.ts, readChangeStart).
 * The watched node moving to another tree takes the subscription with it; its deletion (or an
 * ancestor's) ends it after that event.
 */
export async function openTreeChanges(
  scope: LiveScope,
  args: TreeChangesArgs,
): Promise<AsyncIterableIterator<LiveChange>> {
  if (args.maxDepth != null && (!Number.isInteger(args.maxDepth) || args.maxDepth < 0))
    throw new TreeError('BAD_USER_INPUT', 'maxDepth must be 0 or more', { field: 'maxDepth' });
  const resumed = args.after == null ? null : resumeFrom(scope, args.after);
  const node = await scope.readNode(args.nodeId);
  // Its tree from its ancestors: a strategy that keeps no path leaves a node's rootId unset.
  const ancestors = node ? (await scope.ancestorsOf(node)).map((n) => n.id) : [];
  if (!node || !scope.canRead([...ancestors, node.id])) throw notFound('node', args.nodeId);
  // A cursor of this node's subscription holds its place then: the resume goes on from there
  // as the subscription did, following the node into the trees it went to since.
  const path = resumed?.watch?.nodeId === node.id ? resumed.watch.path : ancestors;
  const watch: Watch = { nodeId: node.id, maxDepth: args.maxDepth ?? null, path };
  if (resumed && resumed.rootId !== treeOf(watch))
    throw badInput("after is a cursor of another tree than the node's: subscribe with the node's changeCursor", {
      field: 'after',
    });
  const start = resumed ?? { rootId: treeOf(watch), ...(await scope.store.changes.start(treeOf(watch))) };
  return new Subscription(scope, watch, start).iterator();
}

/**
 * The cursor `after` of a resume: signed for the caller's tenant, of a tree it may read (a cursor
 * is no way into another tree's log), and within the retention.
 */
function resumeFrom(scope: LiveScope, after: string): ChangeCursor {
  const cursor = scope.store.changes.cursors.decode(after);
  const watched = cursor.watch ? [...cursor.watch.path, cursor.watch.nodeId] : [cursor.rootId];
  if (!scope.canRead(watched)) throw badInput('after is not a cursor of treeChanges', { field: 'after' });
  if (Date.now() - cursor.at > scope.resumeWithinMs)
    throw new TreeError(
      'RESYNC_REQUIRED',
      'the cursor is older than the changes kept; read the subtree again with its changeCursor, ' +
        'then subscribe after it',
      { retentionHours: scope.resumeWithinMs / HOUR_MS },
    );
  return cursor;
}

/** One subscriber: its watch, the tree it reads, and its queue of changes not yet taken. */
class Subscription {
  private readonly queue: Array<LiveChange> = [];
  private waiting: ((result: IteratorResult<LiveChange>) => void) | null = null;
  private failed: ((error: Error) => void) | null = null;
  private detach: () => void = () => {};
  private done = false;
  private error: Error | null = null;
  private tree: string;
  /** The hub's subscriber of the tree read now, and the numbers of that tree not for this one. */
  private reader: HubSubscriber | null = null;
  private skip: readonly number[] = [];

  constructor(
    private readonly scope: LiveScope,
    private watch: Watch,
    start: Pick<ChangeCursor, 'rootId' | 'seq' | 'skip'>,
  ) {
    this.tree = start.rootId;
    this.attach(start.seq, start.skip);
  }

  private attach(pos: number, skip: readonly number[]): void {
    this.skip = skip;
    const reader: HubSubscriber = {
      pos,
      deliver: (changes, last) => {
        reader.pos = last;
        for (const change of changes) {
          // A change that took the watch to another tree ends this batch: the rest of it is
          // that of a log no longer read (the same changes come from the new tree's, if any).
          if (this.done || this.reader !== reader) return;
          if (!this.skip.includes(change.seq)) this.take(change);
        }
      },
    };
    this.reader = reader;
    this.detach = this.scope.hub.attach(this.scope.tenant, this.tree, reader);
  }

  /** One change of the tree read: queued when in the window; the watch follows its node. */
  private take(record: ChangeRecord): void {
    const seen = seenBy(this.watch, record);
    this.watch = seen.watch;
    const next = treeOf(this.watch);
    // Where this subscription reads on from after the change: the record's twin in the tree
    // the watched subtree went to, if it went to another.
    const moved = !seen.ended && next !== this.tree;
    const on = moved && record.other?.rootId === next ? record.other : { rootId: this.tree, seq: record.seq };
    if (seen.kind) {
      this.push({
        record,
        kind: seen.kind,
        cursor: this.scope.store.changes.cursors.encode({
          ...on,
          at: Date.parse(record.at),
          skip: moved ? [] : this.skip.filter((seq) => seq > record.seq),
          watch: { nodeId: this.watch.nodeId, path: this.watch.path },
        }),
        visible: visibleAfter(record, (chain) => this.scope.canRead(chain)),
      });
    }
    // The watched node gone, or moved where the caller may not read it: the stream ends.
    if (seen.ended || !this.scope.canRead([...this.watch.path, this.watch.nodeId])) return this.end();
    if (!moved) return;
    this.detach();
    this.reader = null;
    if (on.rootId !== next) return this.end();
    this.tree = next;
    this.attach(on.seq, []);
  }

  private push(change: LiveChange): void {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      this.failed = null;
      resolve({ value: change, done: false });
      return;
    }
    this.queue.push(change);
    if (this.queue.length > this.scope.queueLimit) {
      this.fail(
        new TreeError(
          'SLOW_CONSUMER',
          `${this.queue.length} changes waited to be sent: the subscription is closed; ` +
            'resume from the last cursor received',
          { queued: this.queue.length },
        ),
      );
    }
  }

  private fail(error: Error): void {
    this.error = error;
    this.queue.length = 0;
    this.end();
    if (this.failed) {
      const reject = this.failed;
      this.waiting = null;
      this.failed = null;
      reject(error);
    }
  }

  private end(): void {
    this.done = true;
    this.detach();
    if (this.waiting && this.queue.length === 0 && !this.error) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: undefined, done: true });
    }
  }

  iterator(): AsyncIterableIterator<LiveChange> {
    const next = (): Promise<IteratorResult<LiveChange>> => {
      const queued = this.queue.shift();
      if (queued) return Promise.resolve({ value: queued, done: false });
      if (this.error) return Promise.reject(this.error);
      if (this.done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => {
        this.waiting = resolve;
        this.failed = reject;
      });
    };
    const stop = async (): Promise<IteratorResult<LiveChange>> => {
      this.queue.length = 0;
      this.end();
      return { value: undefined, done: true };
    };
    return {
      next,
      return: stop,
      throw: async (error: unknown) => {
        await stop();
        throw error;
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }
}

/**
 * The `treeChanges` cursor of a change read outside a subscription (an undo's answer): the
 * changed node watched from its place after the change.
 */
export const liveCursorOf = (cursors: ChangeCursors, record: ChangeRecord): string => {
  const path = record.to?.path ?? record.from?.path ?? [];
  return cursors.encode({
    rootId: record.rootId,
    seq: record.seq,
    at: Date.parse(record.at),
    skip: [],
    ...((path[0] ?? record.nodeId) === record.rootId ? { watch: { nodeId: record.nodeId, path } } : {}),
  });
};

/** Whether a caller who may read the nodes `canRead` says sees the node after the change (not after a delete). */
export const visibleAfter = (record: ChangeRecord, canRead: (chain: readonly string[]) => boolean): boolean =>
  record.kind !== 'DELETED' &&
  canRead(
    record.to
      ? [...record.to.path, record.nodeId]
      : record.nodeId === record.rootId
        ? [record.rootId]
        : [record.rootId, record.nodeId],
  );
