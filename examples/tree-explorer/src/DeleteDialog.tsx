import { useEffect, useRef, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { countDescendants } from './countDescendants.ts';
import type { DeleteTarget } from './explorer.ts';
import { explainFailure, type Failure } from './failure.ts';
import { DELETE_NODE, expectedParentOf, type JobInfo } from './operations.ts';
import { refreshScreen } from './refreshScreen.ts';
import { useEscape } from './useEscape.ts';

const format = new Intl.NumberFormat();

/** "Delete Oaks and its 2 descendants?", once they are counted. */
export function deleteQuestion(name: string, counted: number | null): string {
  if (counted === null) return `Delete ${name} and its whole subtree? Counting its descendants…`;
  if (counted === 0) return `Delete ${name}? It has no descendants.`;
  return `Delete ${name} and its ${format.format(counted)} ${counted === 1 ? 'descendant' : 'descendants'}?`;
}

/**
 * Confirms a delete, naming the size of the subtree that goes with the node. Cancel has the
 * focus first (the safe choice); Escape cancels. The delete sends the node's version as
 * `expectedVersion`; a refusal stays in the dialog. A big subtree is deleted by a job: the
 * mutation answers at once with it (`job`), the page shows its progress.
 */
export function DeleteDialog({
  target,
  onClose,
  onDeleted,
}: {
  target: DeleteTarget;
  onClose: () => void;
  onDeleted: (target: DeleteTarget, deletedCount: number, job: JobInfo | null) => void;
}) {
  const client = useApolloClient();
  const { node } = target;
  const [counted, setCounted] = useState<number | null>(node.childCount === 0 ? 0 : null);
  const [countFailure, setCountFailure] = useState<Failure | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  useEffect(() => cancel.current?.focus(), []);
  useEffect(() => {
    if (node.childCount === 0) return;
    let current = true;
    countDescendants(client, node.id).then(
      (result) => current && setCounted(result),
      async (error: unknown) => {
        const explained = await explainFailure(error);
        if (current) setCountFailure(explained);
      },
    );
    return () => {
      current = false;
    };
  }, [client, node.id, node.childCount]);
  useEscape(onClose);

  const confirm = async () => {
    setDeleting(true);
    setFailure(null);
    try {
      const result = await client.mutate({
        mutation: DELETE_NODE,
        variables: { id: node.id, expectedVersion: node.version, expectedParentId: expectedParentOf(node) },
      });
      // Reads no longer see the subtree, job or not.
      await refreshScreen(client);
      onDeleted(target, result.data?.deleteNode.deletedCount ?? 0, result.data?.deleteNode.job ?? null);
    } catch (error) {
      setFailure(await explainFailure(error));
      setDeleting(false);
    }
  };

  const question = countFailure
    ? `Delete ${node.name} and all its descendants? They could not be counted (${countFailure.message}).`
    : deleteQuestion(node.name, counted);
  return (
    <div className="backdrop">
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="delete-title"
        aria-describedby="delete-question"
        className="dialog"
      >
        <h2 id="delete-title">Delete {node.name}</h2>
        <p id="delete-question">{question}</p>
        {failure && (
          <div role="alert" className="refusal">
            <strong className="code">{failure.code}</strong> <span className="message">{failure.message}</span>
          </div>
        )}
        <div className="actions">
          <button type="button" ref={cancel} onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="danger"
            disabled={deleting || (counted === null && countFailure === null)}
            onClick={() => void confirm()}
          >
            {deleting ? 'Deleting…' : 'Delete'}
          </button>
        </div>
      </div>
    </div>
  );
}
