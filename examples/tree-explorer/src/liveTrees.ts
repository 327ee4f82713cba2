import type { ApolloClient, ApolloCache } from '@apollo/client';
import type { Modifier } from '@apollo/client/cache';
import { useApolloClient } from '@apollo/client/react';
import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { useEffect } from 'react';
import { authHeaders, GRAPHQL_URL, TOKEN } from './client.ts';
import { TREE_CHANGES, type TreeChangeEvent } from './operations.ts';

/**
 * Live updates: the app follows the changes of every tree it shows (treeChanges, over GraphQL over
 * WebSocket at the API's /graphql) and patches its cache with each, so that a change made in
 * another tab, by a colleague or by a job shows within a moment, with no reload: a node's new
 * name and version are written in place, and the children list and count of a parent that gained
 * or lost a child are read again (those fields alone). After a disconnect
 * (the server restarting, the network gone) it subscribes again from the cursor of the last
 * change it applied: every change missed comes, once, in order.
 */
export function useLiveTrees(rootIds: readonly string[]): void {
  const client = useApolloClient();
  const key = rootIds.join('\u0000');
  useEffect(() => {
    const stops = key === '' ? [] : key.split('\u0000').map((rootId) => follow(client, rootId));
    return () => stops.forEach((stop) => stop());
  }, [client, key]);
}

/** How long after a dropped subscription the app subscribes again (ms). */
const RESUBSCRIBE_MS = 1000;

let socket: Client | null = null;

/** One WebSocket for every subscription of the page, opened when the first one starts. */
function liveSocket(): Client {
  const url = new URL(GRAPHQL_URL, window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  socket ??= createClient({ url: url.href, connectionParams: authHeaders(TOKEN), lazy: true, retryAttempts: 0 });
  return socket;
}

/** Follows one tree from now on; answers how to stop. */
function follow(client: ApolloClient, rootId: string): () => void {
  // Sent as Apollo Client sends its operations (with __typename): as registered for trusted documents.
  const query = print(client.cache.transformDocument(TREE_CHANGES));
  let cursor: string | null = null;
  let stopped = false;
  let gone = false;
  let unsubscribe = () => {};
  const again = () => {
    if (!stopped && !gone) setTimeout(start, RESUBSCRIBE_MS);
  };
  function start() {
    if (stopped) return;
    unsubscribe = liveSocket().subscribe<{ treeChanges: TreeChangeEvent }>(
      { query, variables: { nodeId: rootId, after: cursor } },
      {
        next: ({ data }) => {
          if (!data) return;
          cursor = data.treeChanges.cursor;
          patch(client.cache, data.treeChanges);
          if (data.treeChanges.kind === 'DELETED' && data.treeChanges.nodeId === rootId) gone = true;
        },
        error: again,
        complete: again,
      },
    );
  }
  start();
  return () => {
    stopped = true;
    unsubscribe();
  };
}

/** Applies one change to the cache. */
function patch(cache: ApolloCache, change: TreeChangeEvent): void {
  const idOf = (id: string) => cache.identify({ __typename: 'Node', id });
  const { node, kind, oldParentId, newParentId } = change;
  if (node) {
    // A change replayed after a resume, or made by this tab, is no news: only a newer version is
    // written, with the fields that go with it (its name, its type's fields: a colleague's new
    // price shows, and the next change sends the version that price has).
    const { __typename, id, parentId: _parentId, version, ...fields } = node;
    const newer: Modifier<unknown> = (value, { fieldName, readField }) =>
      (readField<number>('version') ?? 0) < version ? (fields as Record<string, unknown>)[fieldName] : value;
    cache.modify({
      id: idOf(id),
      fields: {
        version: (cached: number) => Math.max(cached, version),
        ...Object.fromEntries(Object.keys(fields).map((field) => [field, newer])),
      },
    });
  }
  const moved = kind === 'MOVED' || kind === 'MOVED_IN' || kind === 'MOVED_OUT';
  if (moved || kind === 'DELETED') reread(cache, oldParentId);
  const created = kind === 'CREATED' || kind === 'COPIED' || kind === 'RESTORED';
  if ((moved || created || kind === 'REORDERED') && !(kind === 'MOVED_OUT' && newParentId === null))
    reread(cache, newParentId);
  if (kind === 'JOB_DONE') reread(cache, change.nodeId);
  if (kind === 'DELETED') cache.evict({ id: idOf(change.nodeId) });
  cache.gc();
}

/**
 * The children of `parentId` (null: the roots) and its childCount read again: the queries that
 * show them fetch those fields alone.
 */
function reread(cache: ApolloCache, parentId: string | null): void {
  if (parentId === null) {
    cache.evict({ id: 'ROOT_QUERY', fieldName: 'roots' });
    return;
  }
  const id = cache.identify({ __typename: 'Node', id: parentId });
  cache.evict({ id, fieldName: 'children' });
  cache.evict({ id, fieldName: 'childCount' });
}
