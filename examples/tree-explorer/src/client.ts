import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import type { FieldMergeFunction } from '@apollo/client/cache';

export const GRAPHQL_URL = import.meta.env.VITE_GRAPHQL_URL || 'http://localhost:4000/graphql';
/** A bearer credential for a server with AUTH=jwt or apikey (`npm run -s tree -- token`); none by default. */
export const TOKEN = import.meta.env.VITE_CANOPY_TOKEN || '';

interface Page {
  nodes: unknown[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/**
 * One cached list per parent (and one for the roots), whatever the paging arguments: a page
 * fetched with `after` is appended, a first page (no `after`, as a refetch sends) replaces the
 * list, so a refetch after a move shows the server's current order.
 */
const mergePages: FieldMergeFunction<Page, Page> = (existing, incoming, { args }) => {
  if (!existing || !args?.after) return incoming;
  return { ...incoming, nodes: [...existing.nodes, ...incoming.nodes] };
};

export function createClient(uri: string = GRAPHQL_URL, token: string = TOKEN) {
  return new ApolloClient({
    link: new HttpLink({ uri, headers: token ? { authorization: `Bearer ${token}` } : {} }),
    cache: new InMemoryCache({
      typePolicies: {
        Query: { fields: { roots: { keyArgs: false, merge: mergePages } } },
        Node: { fields: { children: { keyArgs: false, merge: mergePages } } },
      },
    }),
  });
}
