import { useCallback, useRef, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { explainFailure, type Failure } from './failure.ts';
import { moveInCache, showInList } from './listCache.ts';
import type { MovePlan } from './movePlan.ts';
import { expectedParentOf, REPARENT, TREE_NODE_QUERY, type NodeDetails } from './operations.ts';
import { refreshScreen } from './refreshScreen.ts';

/** A move the server refused, as shown next to the tree. */
export interface MoveRefusal extends Failure {
  /** "Could not move Oaks into Red oak". */
  what: string;
}

export interface MoveHooks {
  isExpanded: (id: string) => boolean;
  setOpen: (id: string, open: boolean) => void;
  /** Opens the path to a node (its ancestors, root first). */
  reveal: (ids: readonly string[]) => void;
  focus: (id: string) => void;
  announce: (message: string) => void;
  /** The move answered with a RUNNING job (`pendingJob`): its progress is shown meanwhile. */
  moved: (node: NodeDetails) => void;
}

/**
 * Moves from dragging and from the keyboard, optimistically: the tree shows the node at its new
 * place at once (an optimistic layer of the cache, see moveInCache), and the server's answer
 * decides. Refused (CYCLE, DEPTH_LIMIT, VERSION_CONFLICT, a network error, ...): the layer is
 * removed, which puts back exactly the tree as it was, and the refusal is shown (the node's
 * current version is read again, for the next try). Accepted: the queries on screen are
 * refetched and the layer gives way to the server's lists. The moved item keeps the focus
 * either way. One move at a time: the next one needs the node's new version.
 */
export function useMoveNode(hooks: MoveHooks) {
  const client = useApolloClient();
  const [refusal, setRefusal] = useState<MoveRefusal | null>(null);
  const moving = useRef(false);
  const layers = useRef(0);
  const latest = useRef(hooks);
  latest.current = hooks;

  const move = useCallback(
    async (plan: MovePlan) => {
      const { isExpanded, setOpen, reveal, focus, announce, moved } = latest.current;
      const { node } = plan;
      if (moving.current) {
        announce(`Another move is still in progress: ${node.name} stays where it is.`);
        return;
      }
      moving.current = true;
      setRefusal(null);
      const layer = `move ${node.id} #${++layers.current}`;
      // Moving into a closed node opens it, so that the node stays in sight.
      const opened =
        !plan.intoOwnSubtree && plan.toParentId !== null && !isExpanded(plan.toParentId) ? plan.toParentId : null;
      focus(node.id);
      if (!plan.intoOwnSubtree) client.cache.recordOptimisticTransaction((cache) => moveInCache(cache, plan), layer);
      if (opened) setOpen(opened, true);
      try {
        let result: NodeDetails;
        try {
          const { data } = await client.mutate({
            mutation: REPARENT,
            variables: {
              id: node.id,
              newParentId: plan.toParentId,
              before: plan.before ?? null,
              after: plan.after ?? null,
              expectedVersion: node.version,
              expectedParentId: expectedParentOf(node),
            },
          });
          if (!data) throw new Error('reparent answered no data');
          result = data.reparent;
        } catch (error) {
          client.cache.removeOptimistic(layer);
          if (opened) setOpen(opened, false);
          focus(node.id);
          // The node may have changed meanwhile (VERSION_CONFLICT): its current version lets the
          // next try go through. Only the node is read again: the tree stays as it was.
          const [failure] = await Promise.all([
            explainFailure(error),
            client
              .query({ query: TREE_NODE_QUERY, variables: { id: node.id }, fetchPolicy: 'network-only' })
              .catch(() => undefined),
          ]);
          setRefusal({ ...failure, what: `Could not move ${node.name} ${plan.where}` });
          return;
        }
        await refreshScreen(client);
        showInList(client.cache, result.parentId, node.id);
        client.cache.removeOptimistic(layer);
        reveal(result.ancestors.map((ancestor) => ancestor.id));
        focus(node.id);
        announce(`Moved ${node.name} ${plan.where}.`);
        moved(result);
      } finally {
        moving.current = false;
      }
    },
    [client],
  );

  return { move, refusal, dismissRefusal: useCallback(() => setRefusal(null), []) };
}
