import { useQuery } from '@apollo/client/react';
import { LoadError } from './LoadError.tsx';
import { LoadMore } from './LoadMore.tsx';
import { PAGE_SIZE, ROOTS } from './operations.ts';
import { siblingItems } from './TreeItem.tsx';
import { useLiveTrees } from './liveTrees.ts';

/** The tree (WAI-ARIA tree): the roots, PAGE_SIZE at a time, each with its open subtree. */
export function Roots() {
  const { data, error, loading, fetchMore, refetch } = useQuery(ROOTS, {
    variables: { first: PAGE_SIZE },
    fetchPolicy: 'cache-and-network',
  });
  // Every tree listed is followed live (liveTrees.ts).
  useLiveTrees(data?.roots.nodes.map((node) => node.id) ?? []);
  if (error) return <LoadError what="the roots" error={error} onRetry={() => refetch()} />;
  if (!data) return <p className="loading">{loading ? 'Loading…' : 'No data'}</p>;
  const { nodes, pageInfo } = data.roots;
  return (
    <>
      {nodes.length === 0 && <p className="hint">The tree is empty.</p>}
      <ul role="tree" aria-label="Roots" className="tree">
        {/* The number of roots is unknown (-1) until the last page is loaded. */}
        {siblingItems(nodes, [], 1, pageInfo.hasNextPage ? -1 : nodes.length)}
      </ul>
      {pageInfo.hasNextPage && (
        <LoadMore label="Load more roots" onLoad={() => fetchMore({ variables: { after: pageInfo.endCursor } })} />
      )}
    </>
  );
}
