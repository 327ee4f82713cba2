import { useSyncExternalStore } from 'react';
import type { DropPosition } from './dropPosition.ts';
import type { TreePlace } from './treePlace.ts';

interface DragState {
  dragged: TreePlace | null;
  target: { id: string; position: DropPosition } | null;
}

/**
 * The drag in progress, outside React state: the pointer crosses rows many times a second, and
 * only the rows whose drop indicator changes re-render (useDropIndicator). The dragged node is
 * kept here because a page cannot read a drag's data before the drop.
 */
export class DragStore {
  private state: DragState = { dragged: null, target: null };
  private readonly listeners = new Set<() => void>();

  get dragged(): TreePlace | null {
    return this.state.dragged;
  }

  start(dragged: TreePlace): void {
    this.set({ dragged, target: null });
  }

  /** The row under the pointer and where in it; null when the pointer is over no drop target. */
  aim(target: DragState['target']): void {
    const current = this.state.target;
    if (current?.id === target?.id && current?.position === target?.position) return;
    this.set({ ...this.state, target });
  }

  end(): void {
    if (this.state.dragged || this.state.target) this.set({ dragged: null, target: null });
  }

  dropAt(id: string): DropPosition | null {
    return this.state.target?.id === id ? this.state.target.position : null;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(state: DragState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}

/** For one row: whether it is being dragged, and the drop indicator to draw on it. */
export function useDropIndicator(store: DragStore, id: string): { dragging: boolean; drop: DropPosition | null } {
  const dragging = useSyncExternalStore(store.subscribe, () => store.dragged?.node.id === id);
  const drop = useSyncExternalStore(store.subscribe, () => store.dropAt(id));
  return { dragging, drop };
}
