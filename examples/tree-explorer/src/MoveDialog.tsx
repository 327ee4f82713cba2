import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { explainFailure, type Failure } from './failure.ts';
import { COPY_SUBTREE, expectedParentOf, REPARENT, type NodeDetails, type TreeNode } from './operations.ts';
import { useEscape } from './useEscape.ts';

/**
 * Moves `node` (with its subtree) under the parent whose id is typed in (suggestions: the nodes
 * loaded so far), or makes it a root when the field is left empty: a move to a node that is not
 * on screen (dragging and the keyboard move among the nodes shown). A refused move keeps the
 * dialog open and shows the server's message and code; a move that went through refetches every
 * query on screen, so the tree shows the server's new state. With `onCopied`, the same dialog
 * copies the node instead (copySubtree): the copy goes last under the parent typed in.
 */
export function MoveDialog({
  node,
  onClose,
  onMoved,
  onCopied,
}: {
  node: NodeDetails;
  onClose: () => void;
  onMoved: (moved: NodeDetails) => void;
  onCopied?: (copy: TreeNode, count: number) => void;
}) {
  const client = useApolloClient();
  const [newParentId, setNewParentId] = useState('');
  const [refusal, setRefusal] = useState<Failure | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const [reparent, moving] = useMutation(REPARENT, { refetchQueries: 'active', awaitRefetchQueries: true });
  const [copySubtree, copying] = useMutation(COPY_SUBTREE, { refetchQueries: 'active', awaitRefetchQueries: true });
  const loading = moving.loading || copying.loading;
  const verb = onCopied ? 'Copy' : 'Move';

  // Every node the cache knows, as suggestions for the new parent.
  const known = useMemo(() => {
    const nodes: Array<{ id: string; name: string }> = [];
    // Every node is cached under `Node:<id>`, whatever its type (client.ts).
    for (const [key, value] of Object.entries(
      client.cache.extract() as Record<string, { id?: unknown; name?: unknown }>,
    )) {
      if (key.startsWith('Node:') && typeof value.id === 'string' && value.id !== node.id) {
        nodes.push({ id: value.id, name: typeof value.name === 'string' ? value.name : value.id });
      }
    }
    return nodes.sort((a, b) => a.id.localeCompare(b.id));
  }, [client, node.id]);

  useEffect(() => input.current?.focus(), []);
  useEscape(onClose);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    const target = newParentId.trim();
    try {
      if (onCopied) {
        const copied = await copySubtree({ variables: { id: node.id, newParentId: target === '' ? null : target } });
        const made = copied.data?.copySubtree;
        if (made?.node) onCopied(made.node, made.copiedCount);
        return;
      }
      const result = await reparent({
        variables: {
          id: node.id,
          newParentId: target === '' ? null : target,
          expectedVersion: node.version,
          expectedParentId: expectedParentOf(node),
        },
      });
      if (result.data) onMoved(result.data.reparent);
    } catch (error) {
      setRefusal(await explainFailure(error));
    }
  };

  return (
    <div className="backdrop">
      <div role="dialog" aria-modal="true" aria-labelledby="move-title" className="dialog">
        <h2 id="move-title">
          {verb} {node.name} <code>{node.id}</code>
        </h2>
        <form onSubmit={(event) => void submit(event)}>
          <label htmlFor="new-parent">New parent id</label>
          <input
            id="new-parent"
            ref={input}
            list="known-nodes"
            autoComplete="off"
            placeholder="empty: make it a root"
            value={newParentId}
            onChange={(event) => setNewParentId(event.target.value)}
          />
          <datalist id="known-nodes">
            {known.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </datalist>
          <p className="hint">
            {onCopied
              ? 'A copy of the node and its whole subtree, with new ids, goes last under the new parent.'
              : 'The node moves with its whole subtree, as the last child of its new parent.'}
          </p>
          {refusal && (
            <div role="alert" className="refusal">
              <strong className="code">{refusal.code}</strong> <span className="message">{refusal.message}</span>
            </div>
          )}
          <div className="actions">
            <button type="button" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="primary" disabled={loading}>
              {loading ? `${verb === 'Copy' ? 'Copying' : 'Moving'}…` : verb}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
