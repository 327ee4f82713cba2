/**
 * The tree's items in the order they show, from the DOM: a closed node's children are not
 * rendered, so every treeitem in the document is a visible one, in document order.
 */
export function visibleItems(tree: Element): HTMLElement[] {
  return Array.from(tree.querySelectorAll<HTMLElement>('[role="treeitem"]'));
}

export const itemId = (item: Element | null | undefined): string | null => item?.getAttribute('data-node-id') ?? null;

/** The first child item of an open item, if its children are on screen. */
export function firstChildItem(item: Element): HTMLElement | null {
  return item.querySelector<HTMLElement>(':scope > [role="group"] > [role="treeitem"]');
}

/** The item of the parent node (null for a root). */
export function parentItem(item: Element): HTMLElement | null {
  return item.parentElement?.closest<HTMLElement>('[role="treeitem"]') ?? null;
}

export function findItem(root: ParentNode, id: string): HTMLElement | null {
  return root.querySelector<HTMLElement>(`[role="treeitem"][data-node-id="${CSS.escape(id)}"]`);
}
