import type { ApolloClient } from '@apollo/client';
import { COUNT_PAGE_SIZE, DESCENDANT_IDS, type NodePage } from './operations.ts';

/** Counting stops after this many pages: the dialog then says "more than …". */
const MAX_PAGES = 10;

export interface DescendantCount {
  count: number;
  /** false: there are more than `count`. */
  complete: boolean;
}

/**
 * How many nodes a delete takes with the node itself. The API gives no total, so its
 * descendants are read page by page (ids only, uncached), at most MAX_PAGES pages.
 */
export async function countDescendants(client: ApolloClient, id: string): Promise<DescendantCount> {
  let count = 0;
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const variables: { id: string; first: number; after: string | null } = { id, first: COUNT_PAGE_SIZE, after };
    const { data } = await client.query({ query: DESCENDANT_IDS, variables, fetchPolicy: 'no-cache' });
    const descendants: { nodes: unknown[]; pageInfo: NodePage['pageInfo'] } | undefined = data?.node?.descendants;
    if (!descendants) return { count, complete: true };
    count += descendants.nodes.length;
    if (!descendants.pageInfo.hasNextPage) return { count, complete: true };
    after = descendants.pageInfo.endCursor;
  }
  return { count, complete: false };
}
