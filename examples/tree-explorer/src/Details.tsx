import { useQuery } from '@apollo/client/react';
import { useCallback, useRef, useState } from 'react';
import { useExplorer } from './explorer.ts';
import { LoadError } from './LoadError.tsx';
import { History } from './History.tsx';
import { NewNodeForm } from './NewNodeForm.tsx';
import { NodeFields } from './NodeFields.tsx';
import { NODE_DETAILS, type NodeDetails, type TreeNode } from './operations.ts';
import { ShareDialog } from './ShareDialog.tsx';

/**
 * The selected node: breadcrumbs (its ancestors, root first), its fields (those of its type
 * too, a Product's price editable), "Rename", "Move…" and "Copy…" (the dialog, by the new
 * parent's id), "Delete…", "Share…" (to who may administer it), a form for a new child (not
 * under a Product), and its history.
 */
export function Details({
  id,
  onMove,
  onCopy,
  onCreated,
}: {
  id: string;
  onMove: (node: NodeDetails) => void;
  onCopy: (node: NodeDetails) => void;
  onCreated: (node: TreeNode, parent: TreeNode | null) => void;
}) {
  const { data, error, loading, refetch } = useQuery(NODE_DETAILS, {
    variables: { id },
    fetchPolicy: 'cache-and-network',
  });
  if (error) return <LoadError what={id} error={error} onRetry={() => refetch()} />;
  if (!data) return <p className="loading">{loading ? 'Loading…' : 'No data'}</p>;
  const node = data.node;
  if (!node) return <p className="hint">{id} no longer exists.</p>;
  return (
    <div className="details" data-node-id={node.id}>
      <Breadcrumbs node={node} />
      <h2>{node.name}</h2>
      <NodeFields node={node} />
      {node.pendingJob?.status === 'RUNNING' && (
        <p className="hint">Its subtree is still being moved in the background; reads already show its new place.</p>
      )}
      <NodeActions node={node} onMove={onMove} onCopy={onCopy} />
      {/* A Product holds no children (schema/catalog.graphql). */}
      {node.__typename !== 'Product' && <NewNodeForm parent={node} onCreated={(created) => onCreated(created, node)} />}
      <History id={node.id} />
    </div>
  );
}

/** The node's ancestors, root first, each a link that selects it, then the node. */
function Breadcrumbs({ node }: { node: NodeDetails }) {
  const explorer = useExplorer();
  return (
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
  );
}

/**
 * "Rename" (in its tree row), "Move…", "Copy…", "Delete…" and "Share…" (the dialog of its grants;
 * closed, it gives the focus back to its button).
 */
function NodeActions({
  node,
  onMove,
  onCopy,
}: {
  node: NodeDetails;
  onMove: (node: NodeDetails) => void;
  onCopy: (node: NodeDetails) => void;
}) {
  const explorer = useExplorer();
  const [sharing, setSharing] = useState(false);
  const shareButton = useRef<HTMLButtonElement>(null);
  const closeShare = useCallback(() => {
    setSharing(false);
    shareButton.current?.focus();
  }, []);
  const rename = () => {
    // The name is edited in its tree row: open the path to it first.
    for (const ancestor of node.ancestors) explorer.setOpen(ancestor.id, true);
    explorer.startRename(node.id);
  };
  return (
    <div className="node-actions">
      <button type="button" onClick={rename}>
        Rename
      </button>
      <button type="button" className="primary" onClick={() => onMove(node)}>
        Move…
      </button>
      <button type="button" onClick={() => onCopy(node)}>
        Copy…
      </button>
      <button type="button" onClick={() => explorer.requestDelete({ node, parentId: node.parentId })}>
        Delete…
      </button>
      {/* Only who may administer the node shares it. */}
      {node.access === 'ADMIN' && (
        <button type="button" ref={shareButton} onClick={() => setSharing(true)}>
          Share…
        </button>
      )}
      {sharing && <ShareDialog node={node} onClose={closeShare} />}
    </div>
  );
}
