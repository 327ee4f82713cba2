import type { Page, PageArgs, TreeNode } from '../storage/treeStore.js';
import { MAX_PAGE_SIZE } from '../storage/validation.js';

/**
 * A page of the nodes that pass `test`, read through `read` (a list's pages, in either direction)
 * in pages of 1,000 from the page's cursor until `first` nodes passed and one more shows a next
 * page, or the list ends: each item from the cursor on read once, none after the page's last
 * match but those of the read that found it. The cursors are the list's own.
 */
export async function filteredPage(
  read: (page: PageArgs) => Promise<Page>,
  page: PageArgs,
  test: (node: TreeNode) => boolean,
): Promise<Page> {
  const edges: Page['edges'] = [];
  let after = page.after;
  for (;;) {
    const found = await read({ first: MAX_PAGE_SIZE, after, ...(page.backwards ? { backwards: true } : {}) });
    for (const edge of found.edges) {
      if (!test(edge.node)) continue;
      if (edges.length === page.first) return { edges, hasNextPage: true };
      edges.push(edge);
    }
    const last = found.edges.at(-1);
    if (!found.hasNextPage || !last) return { edges, hasNextPage: false };
    after = last.cursor;
  }
}
