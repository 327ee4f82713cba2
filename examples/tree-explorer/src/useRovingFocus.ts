import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { findItem, itemId } from './treeNavigation.ts';

/**
 * The tree's keyboard focus (WAI-ARIA roving tabindex): `focusedId` is the one item in the Tab
 * order (none set: the first root). `focus(id)` moves the focus to that item as soon as it is on
 * screen: after a move or a create, the item is a new element, rendered once the cache (or the
 * server) has it in its new list. Such a request gives way to the user putting the focus
 * anywhere else. When the focused item leaves the screen for another reason (its parent was
 * collapsed, another client deleted it), the first root takes Tab again.
 */
export function useRovingFocus(container: RefObject<HTMLElement | null>) {
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [, setRequests] = useState(0);
  const request = useRef<string | null>(null);

  const focus = useCallback((id: string) => {
    request.current = id;
    setFocusedId(id);
    // Renders the tree again even when `focusedId` was already this item, so that it takes the focus.
    setRequests((count) => count + 1);
  }, []);
  const wantsFocus = useCallback((id: string) => request.current === id, []);
  const focused = useCallback((id: string) => setFocusedId(id), []);

  useEffect(() => {
    const elsewhere = (event: Event) => {
      const target = event.target instanceof Element ? event.target : null;
      if (request.current !== null && itemId(target?.closest('[role="treeitem"]')) !== request.current)
        request.current = null;
    };
    document.addEventListener('focusin', elsewhere);
    document.addEventListener('pointerdown', elsewhere);
    return () => {
      document.removeEventListener('focusin', elsewhere);
      document.removeEventListener('pointerdown', elsewhere);
    };
  }, []);

  useEffect(() => {
    const root = container.current;
    if (!root || focusedId === null) return;
    const check = () => {
      if (request.current !== focusedId && !findItem(root, focusedId)) setFocusedId(null);
    };
    const observer = new MutationObserver(check);
    observer.observe(root, { childList: true, subtree: true });
    check();
    return () => observer.disconnect();
  }, [container, focusedId]);

  return { focusedId, focus, wantsFocus, focused };
}
