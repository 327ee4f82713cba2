import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { useExplorer } from './explorer.ts';
import { DELETE_NODE, NODE_DETAILS, type JobInfo, type NodeDetails } from './operations.ts';

/** The selected node: breadcrumbs (its ancestors, root first), a few fields, "Move…" and "Delete…". */
export function Details({
  id,
  onMove,
  onDeleted,
}: {
  id: string;
  onMove: (node: NodeDetails) => void;
  onDeleted: (node: NodeDetails, job: JobInfo | null) => void;
}) {
  const explorer = useExplorer();
  const { data, error, loading } = useQuery(NODE_DETAILS, { variables: { id }, fetchPolicy: 'cache-and-network' });
  const [deleteNode, deleting] = useMutation(DELETE_NODE, { refetchQueries: 'active' });
  const [failure, setFailure] = useState<string | null>(null);
  if (error) return <p role="alert" className="error">Could not load {id}: {error.message}</p>;
  if (!data) return <p className="loading">{loading ? 'Loading…' : 'No data'}</p>;
  const node = data.node;
  if (!node) return <p className="hint">{id} no longer exists.</p>;
  const remove = async () => {
    if (!window.confirm(`Delete ${node.name} and its whole subtree?`)) return;
    setFailure(null);
    try {
      const result = await deleteNode({ variables: { id: node.id, expectedVersion: node.version } });
      if (result.data) onDeleted(node, result.data.deleteNode.job);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <div className="details" data-node-id={node.id}>
      <nav aria-label="Breadcrumbs" className="breadcrumbs">
        <ol>
          {node.ancestors.map((ancestor) => (
            <li key={ancestor.id}>
              <button type="button" className="crumb" onClick={() => explorer.select(ancestor.id)}>
                {ancestor.name}
              </button>
            </li>
          ))}
          <li aria-current="page">{node.name}</li>
        </ol>
      </nav>
      <h2>{node.name}</h2>
      <dl className="fields">
        <dt>id</dt>
        <dd>{node.id}</dd>
        <dt>parent</dt>
        <dd>{node.parentId ?? '(root)'}</dd>
        <dt>depth</dt>
        <dd>{node.depth}</dd>
        <dt>children</dt>
        <dd>{node.childCount}</dd>
        <dt>version</dt>
        <dd>{node.version}</dd>
        <dt>updated</dt>
        <dd>{new Date(node.updatedAt).toLocaleString()}</dd>
      </dl>
      {node.pendingJob?.status === 'RUNNING' && (
        <p className="hint">Its subtree is still being moved in the background; reads already show its new place.</p>
      )}
      <div className="node-actions">
        <button type="button" className="primary" onClick={() => onMove(node)}>
          Move…
        </button>
        <button type="button" disabled={deleting.loading} onClick={remove}>
          {deleting.loading ? 'Deleting…' : 'Delete…'}
        </button>
      </div>
      {failure && <p role="alert" className="error">{failure}</p>}
    </div>
  );
}
