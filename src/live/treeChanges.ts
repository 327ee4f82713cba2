import { TreeError, notFound } from '../errors.js';
import type { ChangeRecord } from '../storage/treeStore.js';
import { decodeChangeCursor, encodeChangeCursor } from '../storage/engine/changes/changeRecord.js';
import type { TreeNode, TreeStore } from '../storage/treeStore.js';
import type { ChangeHub } from './changeHub.js';
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
  /** Whether the caller may read the tree of this root. */
  canRead(rootId: string): boolean;
  /** The caller's reads of nodes and their ancestors. */
  readNode(id: string): Promise<TreeNode | null>;
  ancestorsOf(node: TreeNode): Promise<TreeNode[]>;
  hub: ChangeHub;
  /** CHANGE_RETENTION_HOURS, in ms: an older cursor is refused (RESYNC_REQUIRED). */
  retentionMs: number;
  /** Changes queued for a subscriber that reads too slowly before it is closed (SLOW_CONSUMER). */
  queueLimit: number;
}

/**
 * The changes in the subtree of `nodeId` (to `maxDepth` below it), in the order of its tree's
 * log, each once: after the cursor `after` (every change since, then the live ones), or from
 * now. The watched node moving to another tree takes the subscription with it; its deletion
 * (or an ancestor's) ends it after that event.
 */
export async function openTreeChanges(
  scope: LiveScope,
  args: TreeChangesArgs,
): Promise<AsyncIterableIterator<LiveChange>> {
  if (args.maxDepth != null && (!Number.isInteger(args.maxDepth) || args.maxDepth < 0))
    throw new TreeError('BAD_USER_INPUT', 'maxDepth must be 0 or more', { field: 'maxDepth' });
  const node = await scope.readNode(args.nodeId);
  if (!node || !scope.canRead(node.rootId ?? node.id)) throw notFound('node', args.nodeId);
  const path = (await scope.ancestorsOf(node)).map((n) => n.id);
  const watch: Watch = { nodeId: node.id, maxDepth: args.maxDepth ?? null, path };
  let tree = treeOf(watch);
  let pos: number;
  if (args.after != null) {
    const cursor = decodeChangeCursor(args.after);
    if (Date.now() - cursor.at > scope.retentionMs)
      throw new TreeError(
        'RESYNC_REQUIRED',
        'the cursor is older than the changes kept; read the subtree again, then subscribe without after',
        { retentionHours: scope.retentionMs / 3_600_000 },
      );
    tree = cursor.rootId;
    pos = cursor.seq;
  } else {
    pos = await scope.store.lastChange(tree);
  }
  return new Subscription(scope, watch, tree, pos).iterator();
}

/** One subscriber: its watch, where it reads, and its queue of changes not yet taken. */
class Subscription {
  private readonly queue: Array<LiveChange> = [];
  private waiting: ((result: IteratorResult<LiveChange>) => void) | null = null;
  private failed: ((error: Error) => void) | null = null;
  private detach: () => void = () => {};
  private done = false;
  private error: Error | null = null;

  constructor(
    private readonly scope: LiveScope,
    private watch: Watch,
    private tree: string,
    pos: number,
  ) {
    this.attach(pos);
  }

  private attach(pos: number): void {
    const subscriber = {
      pos,
      deliver: (changes: readonly ChangeRecord[], last: number) => {
        subscriber.pos = last;
        for (const change of changes) {
          if (this.done) return;
          this.take(change);
        }
      },
    };
    this.detach = this.scope.hub.attach(this.scope.tenant, this.tree, subscriber);
  }

  /** One change of the tree read: queued when in the window; the watch follows its node. */
  private take(record: ChangeRecord): void {
    const seen = seenBy(this.watch, record);
    this.watch = seen.watch;
    if (seen.kind) {
      this.push({
        record,
        kind: seen.kind,
        cursor: liveCursorOf(record),
        visible: visibleAfter(record, (rootId) => this.scope.canRead(rootId)),
      });
    }
    if (seen.ended) return this.end();
    const next = treeOf(this.watch);
    if (next === this.tree) return;
    // The watched subtree went to another tree: read that one's log after the same change.
    this.detach();
    if (!record.other || !this.scope.canRead(next)) return this.end();
    this.tree = record.other.rootId;
    this.attach(record.other.seq);
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

/** The `treeChanges` cursor of a change: a subscription with it as `after` gets every later change. */
export const liveCursorOf = (record: ChangeRecord): string =>
  encodeChangeCursor({ rootId: record.rootId, seq: record.seq, at: Date.parse(record.at) });

/** Whether a caller who may read the trees `canRead` says sees the node after the change (not after a delete). */
export const visibleAfter = (record: ChangeRecord, canRead: (rootId: string) => boolean): boolean =>
  record.kind !== 'DELETED' && canRead(record.to ? (record.to.path[0] ?? record.nodeId) : record.rootId);
