import { useId, useState, type FormEvent } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { explainFailure, type Failure } from './failure.ts';
import { showInList } from './listCache.ts';
import { CHILDREN, CREATE_NODE, PAGE_SIZE, type TreeNode } from './operations.ts';
import { refreshScreen } from './refreshScreen.ts';

/**
 * Creates a node with the name typed in: the last child of `parent`, or a new root. Once the
 * server has it, the lists on screen are refetched and the new node is shown in its parent's
 * list even when it sits past the pages loaded so far (showInList).
 */
export function NewNodeForm({ parent, onCreated }: { parent: TreeNode | null; onCreated: (node: TreeNode) => void }) {
  const client = useApolloClient();
  const id = useId();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const label = parent ? `New child of ${parent.name}` : 'New root';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') return;
    setBusy(true);
    setFailure(null);
    try {
      const result = await client.mutate({
        mutation: CREATE_NODE,
        variables: { name: trimmed, parentId: parent?.id ?? null },
      });
      const created = result.data?.createNode;
      if (!created) throw new Error('createNode answered no node');
      // The parent's list may never have been loaded (a closed node): load its first page, so
      // that the new node has a list to be shown in once the parent opens.
      if (parent)
        await client
          .query({ query: CHILDREN, variables: { id: parent.id, first: PAGE_SIZE }, fetchPolicy: 'network-only' })
          .catch(() => undefined);
      await refreshScreen(client);
      showInList(client.cache, parent?.id ?? null, created.id);
      setName('');
      onCreated(created);
    } catch (error) {
      setFailure(await explainFailure(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="new-node" aria-labelledby={`${id}-label`} onSubmit={(event) => void submit(event)}>
      <label id={`${id}-label`} htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        value={name}
        placeholder="Name"
        autoComplete="off"
        onChange={(event) => setName(event.target.value)}
      />
      <button type="submit" disabled={busy || name.trim() === ''}>
        {busy ? 'Adding…' : 'Add'}
      </button>
      {failure && (
        <p role="alert" className="error">
          <code className="code">{failure.code}</code> <span className="message">{failure.message}</span>
        </p>
      )}
    </form>
  );
}
