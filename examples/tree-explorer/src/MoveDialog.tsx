import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { explainFailure, type Failure } from './failure.ts';
import { expectedParentOf, REPARENT, type NodeDetails } from './operations.ts';
import { useEscape } from './useEscape.ts';

/**
 * Moves `node` (with its subtree) under the parent whose id is typed in (suggestions: the nodes
 * loaded so far), or makes it a root when the field is left empty: a move to a node that is not
 * on screen (dragging and the keyboard move among the nodes shown). A refused move keeps the
 * dialog open and shows the server's message and code; a move that went through refetches every
 * query on screen, so the tree shows the server's new state.
 */
export function MoveDialog({
  node,
  onClose,
  onMoved,
}: {
  node: NodeDetails;
  onClose: () => void;
  onMoved: (moved: NodeDetails) => void;
}) {
  const client = useApolloClient();
  const [newParentId, setNewParentId] = useState('');
  const [refusal, setRefusal] = useState<Failure | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const [reparent, { loading }] = useMutation(REPARENT, { refetchQueries: 'active', awaitRefetchQueries: true });

  // Every node the cache knows, as suggestions for the new parent.
  const known = useMemo(() => {
    const nodes: Array<{ id: string; name: string }> = [];
    for (const value of Object.values(
      client.cache.extract() as Record<string, { __typename?: string; id?: unknown; name?: unknown }>,
    )) {
      if (value.__typename === 'Node' && typeof value.id === 'string' && value.id !== node.id) {
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
          Move {node.name} <code>{node.id}</code>
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
          <p className="hint">The node moves with its whole subtree, as the last child of its new parent.</p>
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
              {loading ? 'Moving…' : 'Move'}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
