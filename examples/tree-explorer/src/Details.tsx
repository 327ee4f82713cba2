import { useQuery } from '@apollo/client/react';
import { useExplorer } from './explorer.ts';
import { NODE_DETAILS, type NodeDetails } from './operations.ts';

/** The selected node: breadcrumbs (its ancestors, root first), a few fields, and "Move…". */
export function Details({ id, onMove }: { id: string; onMove: (node: NodeDetails) => void }) {
  const explorer = useExplorer();
  const { data, error, loading } = useQuery(NODE_DETAILS, { variables: { id }, fetchPolicy: 'cache-and-network' });
  if (error) return <p role="alert" className="error">Could not load {id}: {error.message}</p>;
  if (!data) return <p className="loading">{loading ? 'Loading…' : 'No data'}</p>;
  const node = data.node;
  if (!node) return <p className="hint">{id} no longer exists.</p>;
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
      <button type="button" className="primary" onClick={() => onMove(node)}>
        Move…
      </button>
    </div>
  );
}
