import { useEffect, useRef, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { useExplorer } from './explorer.ts';
import { explainFailure, type Failure } from './failure.ts';
import { RENAME_NODE, type TreeNode } from './operations.ts';

/**
 * The name of a tree item, editable in place (F2 or "Rename"): Enter saves through `updateNode`
 * with the node's version as `expectedVersion`, Escape (or leaving the field) cancels; either
 * way the focus goes back to the item. A refusal (VERSION_CONFLICT, ...) keeps the field open.
 */
export function RenameField({ node }: { node: TreeNode }) {
  const explorer = useExplorer();
  const client = useApolloClient();
  const [name, setName] = useState(node.name);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  const finish = () => {
    explorer.endRename();
    explorer.focus(node.id);
  };
  const save = async () => {
    const next = name.trim();
    if (next === '' || next === node.name) return finish();
    setSaving(true);
    setFailure(null);
    try {
      await client.mutate({
        mutation: RENAME_NODE,
        variables: { id: node.id, name: next, expectedVersion: node.version },
      });
      explorer.announce(`Renamed ${node.name} to ${next}.`);
      explorer.remember(node.id, `rename of ${next}`);
      finish();
    } catch (error) {
      setFailure(await explainFailure(error));
      setSaving(false);
      input.current?.focus();
    }
  };

  return (
    <span className="rename">
      <input
        ref={input}
        aria-label={`New name for ${node.name}`}
        value={name}
        // Not `disabled`: that would take the focus away from the field while it saves.
        readOnly={saving}
        onChange={(event) => setName(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            void save();
          } else if (event.key === 'Escape') {
            event.preventDefault();
            finish();
          }
        }}
        onBlur={() => {
          if (!saving) explorer.endRename();
        }}
      />
      {failure && (
        <span role="alert" className="error">
          <code className="code">{failure.code}</code> <span className="message">{failure.message}</span>
        </span>
      )}
    </span>
  );
}
