import { useApolloClient, useQuery } from '@apollo/client/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { explainFailure, type Failure } from './failure.ts';
import type { AccessLevel } from './gql/graphql.ts';
import { GRANT_ACCESS, NODE_GRANTS, REVOKE_ACCESS, type NodeDetails } from './operations.ts';
import { useEscape } from './useEscape.ts';

const LEVELS: AccessLevel[] = ['READ', 'WRITE', 'ADMIN'];

/**
 * Shares a node and its subtree: its grants (who, what, granted by whom), a form to give one
 * (a principal, `sub:<subject>`, `group:<group>` or `key:<API key name>`, and a level), a level
 * changed in place, and "Remove". Shown to who may administer the node; a refusal (`FORBIDDEN`,
 * `BAD_USER_INPUT`) stays in the dialog. Escape closes it.
 */
export function ShareDialog({ node, onClose }: { node: NodeDetails; onClose: () => void }) {
  const client = useApolloClient();
  const { data, refetch } = useQuery(NODE_GRANTS, { variables: { id: node.id }, fetchPolicy: 'network-only' });
  const [principal, setPrincipal] = useState('');
  const [level, setLevel] = useState<AccessLevel>(LEVELS[0]!);
  const [failure, setFailure] = useState<Failure | null>(null);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  useEscape(onClose);

  const run = async (work: () => Promise<unknown>) => {
    setFailure(null);
    try {
      await work();
      await refetch();
    } catch (error) {
      setFailure(await explainFailure(error));
    }
  };
  const grant = (who: string, what: AccessLevel) =>
    run(() => client.mutate({ mutation: GRANT_ACCESS, variables: { nodeId: node.id, principal: who, level: what } }));
  const revoke = (who: string) =>
    run(() => client.mutate({ mutation: REVOKE_ACCESS, variables: { nodeId: node.id, principal: who } }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void grant(principal.trim(), level).then(() => setPrincipal(''));
  };

  return (
    <div className="backdrop">
      <div role="dialog" aria-modal="true" aria-labelledby="share-title" className="dialog share">
        <h2 id="share-title">Share {node.name}</h2>
        <p className="hint">A grant covers the node and its whole subtree.</p>
        <ul aria-label="Grants">
          {(data?.node?.grants ?? []).map((g) => (
            <li key={g.principal} data-principal={g.principal}>
              <span className="principal">{g.principal}</span>{' '}
              <select
                aria-label={`Level of ${g.principal}`}
                value={g.level}
                onChange={(event) => void grant(g.principal, event.target.value as AccessLevel)}
              >
                {LEVELS.map((l) => (
                  <option key={l}>{l}</option>
                ))}
              </select>{' '}
              <span className="hint">{g.grantedBy ? `by ${g.grantedBy}` : ''}</span>{' '}
              <button type="button" onClick={() => void revoke(g.principal)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
        <form onSubmit={submit}>
          <label>
            Principal{' '}
            <input
              ref={field}
              value={principal}
              placeholder="sub:ana, group:editors or key:sync"
              onChange={(event) => setPrincipal(event.target.value)}
            />
          </label>{' '}
          <label>
            Level{' '}
            <select value={level} onChange={(event) => setLevel(event.target.value as AccessLevel)}>
              {LEVELS.map((l) => (
                <option key={l}>{l}</option>
              ))}
            </select>
          </label>{' '}
          <button type="submit" className="primary" disabled={principal.trim() === ''}>
            Share
          </button>
        </form>
        {failure && (
          <div role="alert" className="refusal">
            <strong className="code">{failure.code}</strong> <span className="message">{failure.message}</span>
          </div>
        )}
        <div className="actions">
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
