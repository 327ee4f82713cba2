import type { ApolloClient } from '@apollo/client';

/**
 * After a change, the server's state is what counts: every query on screen is fetched again
 * (lists, counts, details, breadcrumbs). Resolves once they all answered; a query that fails
 * shows its own error (with Retry), so that failure is not the change's.
 */
export async function refreshScreen(client: ApolloClient): Promise<void> {
  await Promise.resolve(client.refetchQueries({ include: 'active' })).catch(() => undefined);
}
