import type { ApolloClient } from '@apollo/client';
import { DESCENDANT_COUNT } from './operations.ts';

/**
 * How many nodes a delete takes with the node itself: its `descendantCount`, the server's exact
 * count of its whole subtree, one request whatever its size. Read fresh, never from the cache:
 * the subtree may have changed since it was shown. 0 when the node is gone meanwhile.
 */
export async function countDescendants(client: ApolloClient, id: string): Promise<number> {
  const { data } = await client.query({ query: DESCENDANT_COUNT, variables: { id }, fetchPolicy: 'no-cache' });
  return data?.node?.descendantCount ?? 0;
}
