import { useApolloClient, useQuery } from '@apollo/client/react';
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { explainFailure, failureOf, type Failure } from './failure.ts';
import type { AccessLevel } from './gql/graphql.ts';
import { GRANT_ACCESS, NODE_GRANTS, REVOKE_ACCESS, type NodeDetails, type NodeGrant } from './operations.ts';
import { refreshScreen } from './refreshScreen.ts';
import { useEscape } from './useEscape.ts';

const LEVELS: readonly AccessLevel[] = ['READ', 'WRITE', 'ADMIN'];

/**
 * Shares a node and its subtree: its grants (who, at what level, granted by whom), each with its
 * level to change and "Remove", and a form to give one (a principal, `sub:<subject>`,
 * `group:<group>` or `key:<API key name>`, and a level). Shown to who may administer the node; a
 * refusal (`FORBIDDEN`, `BAD_USER_INPUT`) stays in the dialog, and the principal typed stays in
 * its field to be corrected. The principal field has the focus first; Escape closes.
 */
export function ShareDialog({ node, onClose }: { node: NodeDetails; onClose: () => void }) {
  const { data, error } = useQuery(NODE_GRANTS, { variables: { id: node.id }, fetchPolicy: 'network-only' });
  const { grant, revoke, busy, failure } = useGrantChanges(node.id);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  useEscape(onClose);
  const remove = async (principal: string) => {
    await revoke(principal);
    // Its row (and the button that had the focus) is gone.
    field.current?.focus();
  };
  const shown = failure ?? (error ? failureOf(error) : null);

  return (
    <div className="backdrop">
      <div role="dialog" aria-modal="true" aria-labelledby="share-title" className="dialog share">
        <h2 id="share-title">
          Share {node.name} <code>{node.id}</code>
        </h2>
        <p className="hint">A grant covers the node and its whole subtree.</p>
        <GrantList
          grants={data ? (data.node?.grants ?? null) : error ? null : undefined}
          busy={busy}
          onLevel={(principal, level) => void grant(principal, level)}
          onRemove={(principal) => void remove(principal)}
        />
        <GrantForm field={field} busy={busy} onGrant={grant} />
        {shown && (
          <div role="alert" className="refusal">
            <strong className="code">{shown.code}</strong> <span className="message">{shown.message}</span>
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

/**
 * grantAccess and revokeAccess on a node, one at a time (`busy` meanwhile); each reads every query
 * on screen again once taken (the grants, the node's access, what is shared with the caller). A
 * refusal is kept in `failure`, to show; each resolves to whether the server took it.
 */
function useGrantChanges(nodeId: string) {
  const client = useApolloClient();
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const change = async (send: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setFailure(null);
    try {
      await send();
      await refreshScreen(client);
      return true;
    } catch (caught) {
      setFailure(await explainFailure(caught));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return {
    busy,
    failure,
    grant: (principal: string, level: AccessLevel) =>
      change(() => client.mutate({ mutation: GRANT_ACCESS, variables: { nodeId, principal, level } })),
    revoke: (principal: string) =>
      change(() => client.mutate({ mutation: REVOKE_ACCESS, variables: { nodeId, principal } })),
  };
}

/** The node's grants, each with a level to change and "Remove" (undefined: loading; null: none to show). */
function GrantList({
  grants,
  busy,
  onLevel,
  onRemove,
}: {
  grants: NodeGrant[] | null | undefined;
  busy: boolean;
  onLevel: (principal: string, level: AccessLevel) => void;
  onRemove: (principal: string) => void;
}) {
  if (grants === undefined) return <p className="loading">Loading…</p>;
  if (grants === null) return null;
  if (grants.length === 0)
    return <p className="hint">No grant on this node (those on its ancestors still cover it).</p>;
  return (
    <ul aria-label="Grants" className="grants">
      {grants.map((g) => (
        <li key={g.principal} data-principal={g.principal}>
          <span className="principal">{g.principal}</span>{' '}
          <select
            aria-label={`Level of ${g.principal}`}
            value={g.level}
            disabled={busy}
            onChange={(event) => onLevel(g.principal, event.target.value as AccessLevel)}
          >
            {LEVELS.map((level) => (
              <option key={level}>{level}</option>
            ))}
          </select>{' '}
          {/* Who granted it: nobody to name for a grant given from the command line. */}
          {g.grantedBy && <span className="hint">by {g.grantedBy}</span>}{' '}
          <button type="button" disabled={busy} onClick={() => onRemove(g.principal)}>
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A principal and a level: "Share" gives the grant, or changes the level of the principal's grant here. */
function GrantForm({
  field,
  busy,
  onGrant,
}: {
  field: RefObject<HTMLInputElement>;
  busy: boolean;
  onGrant: (principal: string, level: AccessLevel) => Promise<boolean>;
}) {
  const [principal, setPrincipal] = useState('');
  const [level, setLevel] = useState<AccessLevel>('READ');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // A refused principal stays, to be corrected.
    if (await onGrant(principal.trim(), level)) setPrincipal('');
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <label htmlFor="share-principal">Principal</label>
      <input
        id="share-principal"
        ref={field}
        autoComplete="off"
        aria-describedby="share-principal-hint"
        placeholder="sub:ana"
        value={principal}
        onChange={(event) => setPrincipal(event.target.value)}
      />
      <p id="share-principal-hint" className="hint">
        <code>{'sub:<token subject>'}</code>, <code>{'group:<group>'}</code> or <code>{'key:<API key name>'}</code>
      </p>
      <label htmlFor="share-level">Level</label>
      <select id="share-level" value={level} onChange={(event) => setLevel(event.target.value as AccessLevel)}>
        {LEVELS.map((option) => (
          <option key={option}>{option}</option>
        ))}
      </select>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || principal.trim() === ''}>
          Share
        </button>
      </div>
    </form>
  );
}
