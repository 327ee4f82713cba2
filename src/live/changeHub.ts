import type { ChangeRecord } from '../storage/treeStore.js';
import type { ChangeFeed, TreeStore } from '../storage/treeStore.js';
import type { Waker } from './waker.js';

/**
 * One reader per tree per process: the live subscribers of a tree share its reads of the
 * tree's change log (one Query per wake-up, however many subscribe), each handed the changes
 * after its own position. A reader reads when woken (a change committed here, or in another
 * process through the waker) and every `pollMs` besides, so that a lost wake-up costs at most
 * that delay, never a change. It waits for a number written later than higher ones (a write in
 * flight) up to `patienceMs`, then gives it up (the write then commits with a new number).
 */
export interface HubOptions {
  /** The store of a tenant (null: the default one), unscoped. */
  storeOf(tenant: string | null): TreeStore;
  waker: Waker;
  /** How often a tree with subscribers is read without a wake-up (ms). */
  pollMs: number;
  /** How long a number not written yet is waited for before it is given up (ms). */
  patienceMs: number;
}

/** A subscriber of a tree: its position (the last number it saw) and where its changes go. */
export interface HubSubscriber {
  pos: number;
  deliver(changes: readonly ChangeRecord[], last: number): void;
}

/** Changes read per Query. */
const BATCH = 100;
/** How soon a reader reads again while it waits for a number (ms). */
const MISSING_RETRY_MS = 50;

class TreeFeed {
  readonly subscribers = new Set<HubSubscriber>();
  /** Subscribers admitted before the next read, which starts at the lowest position of all. */
  readonly joining = new Set<HubSubscriber>();
  /** The last number read; undefined until a first subscriber sets where reading starts. */
  last: number | undefined;
  private reading: Promise<void> | null = null;
  private again = false;
  /** The numbers not written yet, with when this reader first saw each missing. */
  private missing = new Map<number, number>();
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly feed: ChangeFeed,
    readonly rootId: string,
    private readonly patienceMs: number,
  ) {}

  /** Reads what is new now (or once the read in progress ends). */
  wake(): void {
    if (this.subscribers.size === 0 && this.joining.size === 0) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.readAll()
      .catch(() => {
        // DynamoDB did not answer: the next wake-up or poll reads again from the same place.
      })
      .finally(() => {
        this.reading = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Admits the joining subscribers: the read about to start goes back to the lowest position. */
  private admit(): void {
    for (const subscriber of this.joining) {
      this.last = Math.min(this.last ?? subscriber.pos, subscriber.pos);
      this.subscribers.add(subscriber);
    }
    this.joining.clear();
  }

  private async readAll(): Promise<void> {
    for (;;) {
      this.admit();
      if (this.subscribers.size === 0) return;
      const read = await this.feed.after(this.rootId, this.last!, BATCH);
      this.last = read.last;
      for (const subscriber of this.subscribers) {
        if (read.last > subscriber.pos)
          subscriber.deliver(
            read.changes.filter((change) => change.seq > subscriber.pos),
            read.last,
          );
      }
      if (read.missing !== undefined) return this.waitFor(read.holes ?? [read.missing]);
      this.missing.clear();
      if (this.joining.size === 0 && !read.more) return;
    }
  }

  /**
   * Numbers not written yet (`holes`, the first one first): read again soon; those waited for
   * past the patience are given up together (a burst of writes that failed leaves many, seen at
   * once), then the reader reads on.
   */
  private async waitFor(holes: readonly number[]): Promise<void> {
    const now = Date.now();
    const seen = new Map(holes.map((seq) => [seq, this.missing.get(seq) ?? now]));
    this.missing = seen;
    const expired = holes.filter((seq) => now - seen.get(seq)! >= this.patienceMs);
    if (expired[0] === holes[0]) {
      await Promise.all(expired.map((seq) => this.feed.giveUp(this.rootId, seq)));
      this.again = true;
      return;
    }
    if (!this.retry)
      this.retry = setTimeout(() => {
        this.retry = null;
        this.wake();
      }, MISSING_RETRY_MS);
  }

  stop(): void {
    if (this.retry) clearTimeout(this.retry);
  }
}

export class ChangeHub {
  private readonly feeds = new Map<string, TreeFeed>();
  private readonly poll: NodeJS.Timeout;
  private readonly unlisten: () => void;

  constructor(private readonly options: HubOptions) {
    this.unlisten = options.waker.listen((tenant, rootId) => this.feeds.get(feedKey(tenant, rootId))?.wake());
    this.poll = setInterval(() => {
      for (const feed of this.feeds.values()) feed.wake();
    }, options.pollMs);
    this.poll.unref();
  }

  /**
   * Adds a subscriber at its position (the last number it saw): from the tree's next read on
   * (which goes back to it if need be), it gets every change after it, in order, each once.
   * Answers how to take it off.
   */
  attach(tenant: string | null, rootId: string, subscriber: HubSubscriber): () => void {
    const key = feedKey(tenant, rootId);
    let feed = this.feeds.get(key);
    if (!feed) {
      feed = new TreeFeed(this.options.storeOf(tenant).changes, rootId, this.options.patienceMs);
      this.feeds.set(key, feed);
    }
    feed.joining.add(subscriber);
    feed.wake();
    const attached = feed;
    return () => {
      attached.subscribers.delete(subscriber);
      attached.joining.delete(subscriber);
      if (attached.subscribers.size + attached.joining.size === 0 && this.feeds.get(key) === attached) {
        attached.stop();
        this.feeds.delete(key);
      }
    };
  }

  /** The trees read, and their subscribers (metrics). */
  get counts(): { trees: number; subscribers: number } {
    let subscribers = 0;
    for (const feed of this.feeds.values()) subscribers += feed.subscribers.size;
    return { trees: this.feeds.size, subscribers };
  }

  close(): void {
    clearInterval(this.poll);
    this.unlisten();
    for (const feed of this.feeds.values()) feed.stop();
    this.feeds.clear();
  }
}

const feedKey = (tenant: string | null, rootId: string): string => `${tenant ?? ''}\u0000${rootId}`;
