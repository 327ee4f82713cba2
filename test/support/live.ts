import { createClient, type Client, type ClientOptions } from 'graphql-ws';
import WebSocket from 'ws';
import { eventually } from './eventually.js';

/** What a test reads of a change. */
export const CHANGE_FIELDS =
  'cursor id kind nodeId oldParentId newParentId position count version at by node { id name parentId depth }';

export interface LiveEvent {
  cursor: string;
  kind: string;
  nodeId: string;
  oldParentId: string | null;
  newParentId: string | null;
  count: number | null;
  node: { id: string; name: string; parentId: string | null; depth: number } | null;
  [field: string]: unknown;
}

/** A treeChanges subscription over graphql-ws: the events it got so far, its errors, and its end. */
export interface LiveSubscription {
  /** Every event, the markers of `ready` left out. */
  events: LiveEvent[];
  errors: unknown[];
  completed: boolean;
  /** Waits until `count` events arrived (or fails, naming what it got). */
  until(count: number, timeoutMs?: number): Promise<LiveEvent[]>;
  /**
   * Waits until the subscription sees changes: `poke` changes node `marker` in its window (an
   * update) until its event arrives. Events of `marker` are left out of `events`.
   */
  ready(marker: string, poke: () => Promise<unknown>): Promise<void>;
  close(): Promise<void>;
}

/** A graphql-ws client of the server at `url` (http://...), with `params` as its connection_init payload. */
export function liveClient(url: string, params: Record<string, unknown> = {}, on: ClientOptions['on'] = {}): Client {
  return createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: params,
    retryAttempts: 0,
    lazy: true,
    on,
  });
}

/** Subscribes to treeChanges(nodeId, maxDepth, after); `ready` waits until it runs. */
export function subscribe(
  client: Client,
  args: { nodeId: string; maxDepth?: number | null; after?: string | null },
  fields = CHANGE_FIELDS,
): LiveSubscription {
  let marker: string | null = null;
  let marked = 0;
  const sub: LiveSubscription = {
    events: [],
    errors: [],
    completed: false,
    until: (count, timeoutMs = 10_000) =>
      eventually(
        `${count} events`,
        async () => sub.events,
        (events) => events.length >= count || sub.errors.length > 0 || sub.completed,
        timeoutMs,
      ).then((events) => {
        if (events.length < count)
          throw new Error(`got ${events.length} events, then ${JSON.stringify(sub.errors) || 'completion'}`);
        return events;
      }),
    close: async () => unsubscribe(),
    async ready(id, poke) {
      marker = id;
      // Changes of the marker seen before (another subscription's pokes) are markers too.
      for (let i = sub.events.length - 1; i >= 0; i--) if (sub.events[i]!.nodeId === id) sub.events.splice(i, 1);
      const deadline = Date.now() + 10_000;
      while (marked === 0) {
        if (Date.now() > deadline || sub.errors.length > 0 || sub.completed)
          throw new Error(`the subscription never saw a change: ${JSON.stringify(sub.errors)}`);
        await poke();
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    },
  };
  const unsubscribe = client.subscribe<{ treeChanges: LiveEvent }>(
    {
      query: `subscription($nodeId: ID!, $maxDepth: Int, $after: String) {
        treeChanges(nodeId: $nodeId, maxDepth: $maxDepth, after: $after) { ${fields} } }`,
      variables: args,
    },
    {
      next: (result) => {
        if (result.errors) sub.errors.push(...result.errors);
        else if (result.data?.treeChanges.nodeId === marker) marked++;
        else if (result.data) sub.events.push(result.data.treeChanges);
      },
      // A refusal before the subscription starts comes as the list of its errors.
      error: (error) => sub.errors.push(...(Array.isArray(error) ? error : [error])),
      complete: () => (sub.completed = true),
    },
  );
  return sub;
}
