import { useApolloClient, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { explainFailure, type Failure } from './failure.ts';
import { NODE_HISTORY, UNDO, type HistoryEntry } from './operations.ts';
import { refreshScreen } from './refreshScreen.ts';

/** What a change did, in a few words. */
function described(change: HistoryEntry): string {
  switch (change.kind) {
    case 'UPDATED':
      return change.oldName ? `updated (was ${change.oldName})` : 'updated';
    case 'MOVED':
      return `moved from ${change.oldParentId ?? '(root)'} to ${change.newParentId ?? '(root)'}`;
    case 'REORDERED':
      return 'reordered';
    case 'JOB_DONE':
      return `${change.count ?? 0} nodes created under it`;
    default:
      return change.kind.toLowerCase();
  }
}

/**
 * The selected node's history: its own changes, newest first, who made each and when, each with
 * an Undo (refused with CONFLICT, shown here, when the node changed since).
 */
export function History({ id }: { id: string }) {
  const client = useApolloClient();
  const { data } = useQuery(NODE_HISTORY, { variables: { id, first: 10 }, fetchPolicy: 'cache-and-network' });
  const [refusal, setRefusal] = useState<Failure | null>(null);
  const changes = data?.node?.history.nodes ?? [];
  const undo = async (change: HistoryEntry) => {
    setRefusal(null);
    try {
      await client.mutate({ mutation: UNDO, variables: { changeId: change.id } });
      await refreshScreen(client);
    } catch (error) {
      setRefusal(await explainFailure(error));
    }
  };
  return (
    <section className="history" aria-label="History">
      <h3>History</h3>
      {changes.length === 0 ? (
        <p className="hint">No change kept.</p>
      ) : (
        <ol>
          {changes.map((change) => (
            <li key={change.id} data-kind={change.kind}>
              <span className="what">{described(change)}</span>{' '}
              {/* Who made it: nobody to name under AUTH=none, where every caller is anonymous. */}
              {change.by && <span className="who">by {change.by}</span>}{' '}
              <time dateTime={change.at}>{new Date(change.at).toLocaleString()}</time>{' '}
              {change.kind !== 'JOB_DONE' && (
                <button type="button" onClick={() => void undo(change)}>
                  Undo
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {refusal && (
        <div role="alert" className="refusal">
          <strong className="code">{refusal.code}</strong> <span className="message">{refusal.message}</span>
        </div>
      )}
    </section>
  );
}
