import { ApolloClient, HttpLink, InMemoryCache, type Reference } from '@apollo/client';
import { defaultDataIdFromObject, type FieldMergeFunction, type InMemoryCacheConfig } from '@apollo/client/cache';
import generated from './gql/possibleTypes.ts';

/**
 * The endpoint: by default the page's own `/graphql`, which the Vite dev server (and `vite
 * preview`) forwards to the API (`CANOPY_API`, see vite.config.ts), so that no CORS setting is
 * needed; an absolute URL calls the API cross-origin.
 */
export const GRAPHQL_URL = import.meta.env.VITE_GRAPHQL_URL || '/graphql';
/** GRAPHQL_URL resolved against the page: what error messages name. */
export const ENDPOINT = new URL(GRAPHQL_URL, window.location.href).href;
/** A bearer credential for a server with AUTH=jwt or apikey (`npm run -s tree -- token`); none by default. */
export const TOKEN = import.meta.env.VITE_CANOPY_TOKEN || '';

export const authHeaders = (token: string): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};

interface Page {
  nodes: Reference[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/**
 * One cached list per parent (and one for the roots, one for what is shared with the caller),
 * whatever the paging arguments: a page fetched with `after` is appended, a first page (no
 * `after`, as a refetch sends) replaces the list, so a refetch after a move shows the server's
 * current order. A node the app appended itself (one just created or moved past the loaded
 * pages, see showInList) gives way to the same node arriving in a page: it then sits where the
 * server has it.
 */
const mergePages: FieldMergeFunction<Page, Page> = (existing, incoming, { args }) => {
  if (!existing || !args?.after) return incoming;
  const arriving = new Set(incoming.nodes.map((node) => node.__ref));
  return { ...incoming, nodes: [...existing.nodes.filter((node) => !arriving.has(node.__ref)), ...incoming.nodes] };
};

/**
 * The node types of the schema (`Node` is an interface: Category, Product, UntypedNode; generated
 * from the schema, src/gql/possibleTypes.ts). The cache needs them to match the fragments on
 * `Node` (`...TreeNodeFields`) and to give every node type the policies of `Node` below.
 */
const { possibleTypes } = generated;
const NODE_TYPENAMES: ReadonlySet<string> = new Set(['Node', ...possibleTypes.Node]);

/**
 * Every node is cached under `Node:<id>`, whatever its type: the app finds a node in the cache
 * by its id alone (`cache.identify({ __typename: 'Node', id })`, listCache.ts, liveTrees.ts).
 */
const dataIdFromObject: InMemoryCacheConfig['dataIdFromObject'] = (object, context) =>
  typeof object.__typename === 'string' && NODE_TYPENAMES.has(object.__typename) && typeof object.id === 'string'
    ? `Node:${object.id}`
    : defaultDataIdFromObject(object, context);

export function createClient(uri: string = GRAPHQL_URL, token: string = TOKEN) {
  return new ApolloClient({
    link: new HttpLink({ uri, headers: authHeaders(token) }),
    cache: new InMemoryCache({
      possibleTypes,
      dataIdFromObject,
      typePolicies: {
        Query: {
          fields: { roots: { keyArgs: false, merge: mergePages }, sharedWithMe: { keyArgs: false, merge: mergePages } },
        },
        Node: { fields: { children: { keyArgs: false, merge: mergePages } } },
      },
    }),
  });
}
