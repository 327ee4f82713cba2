import { useEffect, useRef, type DragEvent, type KeyboardEvent } from 'react';
import { useQuery } from '@apollo/client/react';
import { useDropIndicator } from './dragStore.ts';
import { dropPositionAt } from './dropPosition.ts';
import { useExplorer } from './explorer.ts';
import { LoadError } from './LoadError.tsx';
import { LoadMore } from './LoadMore.tsx';
import { planDrop, planKeyMove } from './movePlan.ts';
import { CHILDREN, PAGE_SIZE, type TreeNode } from './operations.ts';
import { RenameField } from './RenameField.tsx';
import { parentOf, type TreePlace } from './treePlace.ts';
import { firstChildItem, itemId, parentItem, visibleItems } from './treeNavigation.ts';

/**
 * One node of the tree (WAI-ARIA treeitem): a toggle when it has children, its name (click to
 * select), its children when open. The item itself takes the keyboard focus (roving tabindex:
 * only the explorer's focused item is in the Tab order); its row is the drag handle and the
 * drop target.
 */
export function TreeItem({
  place,
  level,
  posinset,
  setsize,
}: {
  place: TreePlace;
  level: number;
  posinset: number;
  setsize: number;
}) {
  const explorer = useExplorer();
  const item = useRef<HTMLLIElement>(null);
  const { node } = place;
  const expandable = node.childCount > 0;
  const expanded = expandable && explorer.isExpanded(node.id);
  const selected = explorer.selectedId === node.id;
  const renaming = explorer.renamingId === node.id;
  const { dragging, drop } = useDropIndicator(explorer.drag, node.id);
  const tabbable = explorer.focusedId === null ? level === 1 && posinset === 1 : explorer.focusedId === node.id;

  // A focus asked for this item (after a move, a rename, arrow keys) lands once it is on screen;
  // it may be a new element (a moved node is rendered in its new list).
  useEffect(() => {
    if (!renaming && explorer.wantsFocus(node.id) && item.current && document.activeElement !== item.current)
      item.current.focus();
  });

  const focusItem = (target: Element | null | undefined) => {
    const id = itemId(target);
    if (id) explorer.focus(id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    // Keys typed in the rename field, or handled by a nested item already.
    if (event.target !== event.currentTarget) return;
    const key = event.key;
    if (event.altKey && (key === 'ArrowUp' || key === 'ArrowDown' || key === 'ArrowLeft' || key === 'ArrowRight')) {
      // Alt+arrows move the node; preventDefault also keeps Alt+ArrowLeft from going back in history.
      event.preventDefault();
      const plan = planKeyMove(place, key);
      if (typeof plan === 'string') explorer.announce(plan);
      else explorer.move(plan);
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const tree = event.currentTarget.closest('[role="tree"]');
    const items = tree ? visibleItems(tree) : [];
    const index = items.indexOf(event.currentTarget);
    switch (key) {
      case 'ArrowDown':
        focusItem(items[index + 1]);
        break;
      case 'ArrowUp':
        focusItem(items[index - 1]);
        break;
      case 'ArrowRight':
        if (expandable && !expanded) explorer.setOpen(node.id, true);
        else if (expanded) focusItem(firstChildItem(event.currentTarget));
        break;
      case 'ArrowLeft':
        if (expanded) explorer.setOpen(node.id, false);
        else focusItem(parentItem(event.currentTarget));
        break;
      case 'Home':
        focusItem(items[0]);
        break;
      case 'End':
        focusItem(items[items.length - 1]);
        break;
      case 'Enter':
      case ' ':
        explorer.select(node.id);
        break;
      case 'F2':
        explorer.startRename(node.id);
        break;
      case 'Delete':
        explorer.requestDelete({ node, parentId: parentOf(place)?.id ?? null });
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const positionIn = (event: DragEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return dropPositionAt(event.clientY - rect.top, rect.height, expanded);
  };

  // The indicator follows the pointer: dragenter as it enters the row (or one of its parts),
  // dragover while it moves there. Cancelling the event marks the row as a drop target.
  const aim = (event: DragEvent<HTMLDivElement>) => {
    const dragged = explorer.drag.dragged;
    // Not a node of this tree (a file, some text), or over itself: no drop here.
    if (!dragged || dragged.node.id === node.id) return explorer.drag.aim(null);
    event.preventDefault();
    event.dataTransfer.dropEffect = event.ctrlKey || event.altKey ? 'copy' : 'move';
    explorer.drag.aim({ id: node.id, position: positionIn(event) });
  };

  const rowClass = ['tree-row', selected && 'selected', dragging && 'dragging'].filter(Boolean).join(' ');
  return (
    <li
      ref={item}
      role="treeitem"
      aria-label={node.name}
      aria-level={level}
      aria-posinset={posinset}
      aria-setsize={setsize}
      aria-expanded={expandable ? expanded : undefined}
      aria-selected={selected}
      tabIndex={tabbable ? 0 : -1}
      data-node-id={node.id}
      className="tree-item"
      onKeyDown={onKeyDown}
      onFocus={(event) => {
        if (event.target.closest('[role="treeitem"]') === event.currentTarget) explorer.focused(node.id);
      }}
    >
      <div
        className={rowClass}
        data-drop={drop ?? undefined}
        draggable={!renaming}
        onDragStart={(event) => {
          event.dataTransfer.effectAllowed = 'copyMove';
          event.dataTransfer.setData('text/plain', node.name);
          explorer.drag.start(place);
        }}
        onDragEnd={() => explorer.drag.end()}
        onDragEnter={aim}
        onDragOver={aim}
        onDrop={(event) => {
          event.preventDefault();
          const dragged = explorer.drag.dragged;
          const position = positionIn(event);
          explorer.drag.end();
          // With Ctrl or Alt held, a copy goes there; the node itself stays.
          const copying = event.ctrlKey || event.altKey;
          const plan = dragged && planDrop(dragged, place, position, copying);
          if (plan && copying) explorer.copy(plan);
          else if (plan) explorer.move(plan);
        }}
      >
        {expandable ? (
          <button
            type="button"
            tabIndex={-1}
            className="toggle"
            aria-label={`${expanded ? 'Collapse' : 'Expand'} ${node.name}`}
            onClick={() => {
              explorer.toggle(node.id);
              explorer.focus(node.id);
            }}
          >
            {expanded ? '▾' : '▸'}
          </button>
        ) : (
          <span className="toggle-placeholder" aria-hidden="true" />
        )}
        {renaming ? (
          <RenameField node={node} />
        ) : (
          <button
            type="button"
            tabIndex={-1}
            className="name"
            onClick={() => {
              explorer.select(node.id);
              explorer.focus(node.id);
            }}
          >
            {node.name}
          </button>
        )}
        {expandable && (
          <span className="count" aria-hidden="true">
            {node.childCount}
          </span>
        )}
      </div>
      {expanded && <Children parent={node} path={[...place.path, node]} level={level + 1} />}
    </li>
  );
}

/** The items of a list of siblings: each knows its neighbours, its position and the list's size. */
export function siblingItems(nodes: readonly TreeNode[], path: readonly TreeNode[], level: number, setsize: number) {
  return nodes.map((node, index) => (
    <TreeItem
      key={node.id}
      place={{ node, path, prev: nodes[index - 1] ?? null, next: nodes[index + 1] ?? null }}
      level={level}
      posinset={index + 1}
      setsize={setsize}
    />
  ));
}

/** The children of an open node, loaded lazily, PAGE_SIZE at a time. */
function Children({ parent, path, level }: { parent: TreeNode; path: readonly TreeNode[]; level: number }) {
  const { data, error, loading, fetchMore, refetch } = useQuery(CHILDREN, {
    variables: { id: parent.id, first: PAGE_SIZE },
    // The list may have changed since the node was last open (a move elsewhere): show the cached
    // page at once and refresh it.
    fetchPolicy: 'cache-and-network',
  });
  if (error)
    return <LoadError what={`the children of ${parent.name}`} error={error} onRetry={() => refetch()} nested />;
  if (!data?.node) return <p className="loading nested">{loading ? 'Loading…' : 'Gone'}</p>;
  const { nodes, pageInfo } = data.node.children;
  return (
    <>
      <ul role="group" className="tree nested">
        {siblingItems(nodes, path, level, Math.max(data.node.childCount, nodes.length))}
      </ul>
      {pageInfo.hasNextPage && (
        <LoadMore
          label={`Load more children of ${parent.name}`}
          onLoad={() => fetchMore({ variables: { after: pageInfo.endCursor } })}
        />
      )}
    </>
  );
}
