import type { ApolloCache, Reference } from '@apollo/client';
import type { MovePlan } from './movePlan.ts';

/**
 * Edits of the cached sibling lists (see client.ts: one list per parent, `Node.children`, and
 * one for the roots, `Query.roots`), for what the page shows before or beside the server's pages.
 */

interface CachedPage {
  nodes: readonly Reference[];
  pageInfo: unknown;
}

const nodeKey = (cache: ApolloCache, id: string) => cache.identify({ __typename: 'Node', id });

/** Changes the cached list of `parentId`'s children (null: the roots), if the cache holds it. */
function editList(
  cache: ApolloCache,
  parentId: string | null,
  edit: (nodes: readonly Reference[]) => readonly Reference[],
): void {
  const modifier = (page: CachedPage) => ({ ...page, nodes: edit(page.nodes) });
  if (parentId === null) cache.modify({ id: 'ROOT_QUERY', fields: { roots: modifier as never } });
  else cache.modify({ id: nodeKey(cache, parentId), fields: { children: modifier as never } });
}

/**
 * The move as the server will do it: the node leaves its list and enters the new one before or
 * after its new sibling (last when neither), the parents' child counts follow. Recorded in an
 * optimistic layer, it is undone to the exact previous state by removing that layer.
 */
export function moveInCache(cache: ApolloCache, plan: MovePlan): void {
  const ref = { __ref: nodeKey(cache, plan.node.id) ?? `Node:${plan.node.id}` };
  const key = (id: string) => nodeKey(cache, id);
  editList(cache, plan.fromParentId, (nodes) => nodes.filter((node) => node.__ref !== ref.__ref));
  editList(cache, plan.toParentId, (nodes) => {
    const rest = nodes.filter((node) => node.__ref !== ref.__ref);
    const sibling = plan.before ?? plan.after;
    const at = sibling === undefined ? -1 : rest.findIndex((node) => node.__ref === key(sibling));
    const index = at === -1 ? rest.length : plan.after === undefined ? at : at + 1;
    return [...rest.slice(0, index), ref, ...rest.slice(index)];
  });
  if (plan.fromParentId !== plan.toParentId) {
    if (plan.fromParentId !== null)
      cache.modify({ id: key(plan.fromParentId), fields: { childCount: (count: number) => Math.max(0, count - 1) } });
    if (plan.toParentId !== null)
      cache.modify({ id: key(plan.toParentId), fields: { childCount: (count: number) => count + 1 } });
  }
  cache.modify({ id: ref.__ref, fields: { parentId: () => plan.toParentId } });
}

/**
 * A node just created or moved may sit beyond the first page of its parent's children, which is
 * all a refetch brings back: it is appended to the cached list, so that it stays on screen (it
 * does come after every loaded sibling); "Load more" later puts it in its place.
 */
export function showInList(cache: ApolloCache, parentId: string | null, id: string): void {
  const key = nodeKey(cache, id);
  if (!key) return;
  editList(cache, parentId, (nodes) => (nodes.some((node) => node.__ref === key) ? nodes : [...nodes, { __ref: key }]));
}
