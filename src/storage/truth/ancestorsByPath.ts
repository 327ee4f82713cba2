import type { NodeReader, TreeNode } from '../treeStore.js';

/**
 * Ancestors from stored paths: one read of every id on every path, through the request's
 * loader, so all nodes of a request share one BatchGet wave. Nodes read from edge copies carry
 * no path; their node items are read first with `readItems` (one more wave; not through the
 * loader, whose cache may hold the edge copy).
 */
export async function ancestorsByPath(
  nodes: readonly TreeNode[],
  read: NodeReader,
  readItems: (ids: readonly string[]) => Promise<Map<string, TreeNode>>,
): Promise<TreeNode[][]> {
  const withPath = new Map(nodes.filter((n) => n.path).map((n) => [n.id, n]));
  const missing = [...new Set(nodes.filter((n) => !n.path).map((n) => n.id))];
  if (missing.length > 0) {
    for (const node of (await readItems(missing)).values()) if (node.path) withPath.set(node.id, node);
  }
  const pathOf = (node: TreeNode): string[] => {
    const path = withPath.get(node.id)?.path;
    if (!path) throw new Error(`node "${node.id}" has no stored path; run: npm run tree -- reindex`);
    return path;
  };
  const ids = [...new Set(nodes.flatMap(pathOf))];
  const found = new Map((await read(ids)).filter((n): n is TreeNode => n !== null).map((n) => [n.id, n]));
  return nodes.map((node) => pathOf(node).flatMap((id) => found.get(id) ?? []));
}
