import { createContext, useContext } from 'react';
import type { DragStore } from './dragStore.ts';
import type { MovePlan } from './movePlan.ts';
import type { TreeNode } from './operations.ts';

/** A node to delete with its subtree, and the parent that takes the focus afterwards. */
export interface DeleteTarget {
  node: TreeNode;
  parentId: string | null;
}

/** What every tree row needs from the explorer: state, and the changes it starts. */
export interface Explorer {
  selectedId: string | null;
  /** The item that takes Tab in the tree (roving tabindex); null: the first root. */
  focusedId: string | null;
  /** The item whose name is being edited. */
  renamingId: string | null;
  drag: DragStore;
  isExpanded(id: string): boolean;
  select(id: string): void;
  toggle(id: string): void;
  setOpen(id: string, open: boolean): void;
  /** Moves the keyboard focus to that item, now or as soon as it is on screen. */
  focus(id: string): void;
  /** Whether the item should take the focus (a focus() for it is pending). */
  wantsFocus(id: string): boolean;
  /** The focus arrived on that item by itself (a click): it becomes the tabbable one. */
  focused(id: string): void;
  move(plan: MovePlan): void;
  /** A copy of the dragged node where the move would have put it (a drop with Ctrl or Alt held). */
  copy(plan: MovePlan): void;
  /** After a change to a node made here: its change joins the tab's undo list. */
  remember(nodeId: string, label: string): void;
  /** Says something in the tree's live region. */
  announce(message: string): void;
  startRename(id: string): void;
  endRename(): void;
  requestDelete(target: DeleteTarget): void;
}

export const ExplorerContext = createContext<Explorer | null>(null);

export function useExplorer(): Explorer {
  const explorer = useContext(ExplorerContext);
  if (!explorer) throw new Error('useExplorer outside <ExplorerContext.Provider>');
  return explorer;
}
