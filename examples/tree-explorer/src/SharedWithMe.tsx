import { useQuery } from '@apollo/client/react';
import { useExplorer } from './explorer.ts';
import { LoadMore } from './LoadMore.tsx';
import { PAGE_SIZE, SHARED_WITH_ME } from './operations.ts';

/**
 * Shared with me: the tops of the subtrees others shared with the caller (`sharedWithMe`), each a
 * link that selects it, PAGE_SIZE at a time. Nothing shows when nothing is shared (a caller who
 * may read every tree holds no grant it needs).
 */
export function SharedWithMe() {
  const explorer = useExplorer();
  const { data, fetchMore } = useQuery(SHARED_WITH_ME, {
    variables: { first: PAGE_SIZE },
    fetchPolicy: 'cache-and-network',
  });
  const shared = data?.sharedWithMe;
  if (!shared || shared.nodes.length === 0) return null;
  return (
    <section className="shared" aria-label="Shared with me">
      <h3>Shared with me</h3>
      <ul>
        {shared.nodes.map((node) => (
          <li key={node.id} data-shared-id={node.id}>
            <button type="button" className="crumb" onClick={() => explorer.select(node.id)}>
              {node.name}
            </button>{' '}
            <span className="hint">{node.access}</span>
          </li>
        ))}
      </ul>
      {shared.pageInfo.hasNextPage && (
        <LoadMore
          label="Load more shared"
          onLoad={() => fetchMore({ variables: { after: shared.pageInfo.endCursor } })}
        />
      )}
    </section>
  );
}
