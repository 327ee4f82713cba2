import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { useExplorer } from './explorer.ts';
import { CHILDREN, PAGE_SIZE, type TreeNode } from './operations.ts';

/** One node: a toggle when it has children, its name (click to select), its children when open. */
export function TreeItem({ node, level }: { node: TreeNode; level: number }) {
  const explorer = useExplorer();
  const expandable = node.childCount > 0;
  const expanded = expandable && explorer.isExpanded(node.id);
  const selected = explorer.selectedId === node.id;
  return (
    <li
      role="treeitem"
      aria-level={level}
      aria-expanded={expandable ? expanded : undefined}
      aria-selected={selected}
      data-node-id={node.id}
      className="tree-item"
    >
      <div className={selected ? 'tree-row selected' : 'tree-row'}>
        {expandable ? (
          <button
            type="button"
            className="toggle"
            aria-label={`${expanded ? 'Collapse' : 'Expand'} ${node.name}`}
            onClick={() => explorer.toggle(node.id)}
          >
            {expanded ? '▾' : '▸'}
          </button>
        ) : (
          <span className="toggle-placeholder" aria-hidden="true" />
        )}
        <button type="button" className="name" onClick={() => explorer.select(node.id)}>
          {node.name}
        </button>
        {expandable && <span className="count">{node.childCount}</span>}
      </div>
      {expanded && <Children parent={node} level={level + 1} />}
    </li>
  );
}

/** The children of an open node, loaded lazily, PAGE_SIZE at a time. */
function Children({ parent, level }: { parent: TreeNode; level: number }) {
  const { data, error, loading, fetchMore } = useQuery(CHILDREN, {
    variables: { id: parent.id, first: PAGE_SIZE },
    // The list may have changed since the node was last open (a move elsewhere): show the cached
    // page at once and refresh it.
    fetchPolicy: 'cache-and-network',
  });
  if (error) return <p role="alert" className="error nested">Could not load the children: {error.message}</p>;
  if (!data?.node) return <p className="loading nested">{loading ? 'Loading…' : 'Gone'}</p>;
  const { nodes, pageInfo } = data.node.children;
  return (
    <>
      <ul role="group" className="tree nested">
        {nodes.map((child) => (
          <TreeItem key={child.id} node={child} level={level} />
        ))}
      </ul>
      {pageInfo.hasNextPage && (
        <LoadMore
          label={`Load more children of ${parent.name}`}
          onLoad={() => fetchMore({ variables: { after: pageInfo.endCursor } })}
        />
      )}
    </>
  );
}

export function LoadMore({ label, onLoad }: { label: string; onLoad: () => Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const load = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await onLoad();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="load-more">
      <button type="button" aria-label={label} disabled={busy} onClick={load}>
        {busy ? 'Loading…' : 'Load more'}
      </button>
      {failure && <span role="alert" className="error">{failure}</span>}
    </div>
  );
}
