import { useApolloClient, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { explainFailure, type Failure } from './failure.ts';
import { DELETED_NODES, RESTORE_NODE, type TreeNode } from './operations.ts';
import { refreshScreen } from './refreshScreen.ts';

/**
 * Recently deleted: the subtrees the server keeps to be restored (UNDO_RETENTION_DAYS), newest
 * first, each with a Restore that brings it back whole where it was.
 */
export function Deleted({ onRestored }: { onRestored: (node: TreeNode) => void }) {
  const client = useApolloClient();
  const { data } = useQuery(DELETED_NODES, { variables: { first: 10 }, fetchPolicy: 'cache-and-network' });
  const [refusal, setRefusal] = useState<Failure | null>(null);
  const deleted = data?.deletedNodes.nodes ?? [];
  if (deleted.length === 0 && !refusal) return null;
  const restore = async (id: string) => {
    setRefusal(null);
    try {
      const result = await client.mutate({ mutation: RESTORE_NODE, variables: { id } });
      await refreshScreen(client);
      if (result.data) onRestored(result.data.restoreNode);
    } catch (error) {
      setRefusal(await explainFailure(error));
    }
  };
  return (
    <section className="deleted" aria-label="Recently deleted">
      <h3>Recently deleted</h3>
      <ul>
        {deleted.map((node) => (
          <li key={node.id} data-deleted-id={node.id}>
            {node.name} <span className="hint">from {node.parentId ?? '(roots)'}</span>{' '}
            <button type="button" onClick={() => void restore(node.id)}>
              Restore
            </button>
          </li>
        ))}
      </ul>
      {refusal && (
        <div role="alert" className="refusal">
          <strong className="code">{refusal.code}</strong> <span className="message">{refusal.message}</span>
        </div>
      )}
    </section>
  );
}
