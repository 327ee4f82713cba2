import { useCallback, useEffect, useRef, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { explainFailure, type Failure } from './failure.ts';
import { NODE_HISTORY, RESTORE_NODE, UNDO } from './operations.ts';
import { refreshScreen } from './refreshScreen.ts';

/** A change made in this tab, and how to take it back: undo its change, or restore what it deleted. */
export interface Undoable {
  /** "rename of Tulips", for the Undo button and the messages. */
  label: string;
  changeId?: string;
  restoreId?: string;
}

/**
 * The changes made in this browser tab, last first, and their undo: the Undo button and Ctrl+Z
 * (Cmd+Z) take the last one back (`undo(changeId:)`, or `restoreNode` for a delete). The server
 * refuses an undo when the node changed since (CONFLICT, naming the later change): the refusal
 * is shown, and the change leaves the list.
 */
export function useUndo(announce: (message: string) => void) {
  const client = useApolloClient();
  const [stack, setStack] = useState<Undoable[]>([]);
  const [refusal, setRefusal] = useState<(Failure & { label: string }) | null>(null);
  const current = useRef(stack);
  current.current = stack;
  const busy = useRef(false);

  /** After a change to node `nodeId`: its change (the node's newest) joins the list. */
  const remember = useCallback(
    async (nodeId: string, label: string) => {
      const { data } = await client.query({
        query: NODE_HISTORY,
        variables: { id: nodeId, first: 1 },
        fetchPolicy: 'network-only',
      });
      const changeId = data?.node?.history.nodes[0]?.id;
      if (changeId) setStack((list) => [...list, { label, changeId }]);
    },
    [client],
  );
  const rememberDelete = useCallback(
    (id: string, label: string) => setStack((list) => [...list, { label, restoreId: id }]),
    [],
  );

  const undoLast = useCallback(async () => {
    const last = current.current.at(-1);
    if (!last || busy.current) return;
    busy.current = true;
    setRefusal(null);
    setStack((list) => list.slice(0, -1));
    try {
      if (last.changeId) await client.mutate({ mutation: UNDO, variables: { changeId: last.changeId } });
      else await client.mutate({ mutation: RESTORE_NODE, variables: { id: last.restoreId! } });
      await refreshScreen(client);
      announce(`Undid the ${last.label}.`);
    } catch (error) {
      setRefusal({ ...(await explainFailure(error)), label: last.label });
    } finally {
      busy.current = false;
    }
  }, [client, announce]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.shiftKey || event.key.toLowerCase() !== 'z') return;
      // Text fields keep their own undo.
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
      event.preventDefault();
      void undoLast();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undoLast]);

  return { last: stack.at(-1) ?? null, remember, rememberDelete, undoLast, refusal, dismiss: () => setRefusal(null) };
}
