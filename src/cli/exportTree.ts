import type { TreeNode, TreeStore } from '../storage/treeStore.js';
import { notFound } from '../errors.js';

export type ExportFormat = 'json' | 'csv';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['json', 'csv'];

/** One node as exported: what an import needs to rebuild it in the same place and order. */
export interface ExportRecord {
  id: string;
  parentId: string | null;
  name: string;
  position: string;
  data: Record<string, unknown> | null;
  /** Its node type (NODE_TYPES): only on typed nodes. */
  type?: string;
}

/** The CSV header: `id,parentId,name,position,data` (data as JSON, empty when none), and `type` under NODE_TYPES. */
export const CSV_HEADER = 'id,parentId,name,position,data';
export const TYPED_CSV_HEADER = `${CSV_HEADER},type`;

/** How many nodes one page of the walk reads. */
const PAGE = 1000;

export const recordOf = (node: TreeNode, root: string | null): ExportRecord => ({
  id: node.id,
  // The exported subtree's top node becomes a root of the export.
  parentId: node.id === root ? null : node.parentId,
  name: node.name,
  position: node.position,
  data: node.data,
  ...(node.type ? { type: node.type } : {}),
});

/** Pure. A field of a CSV line, quoted when it holds a comma, a quote or a line break (RFC 4180). */
export const csvField = (value: string): string =>
  /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

/** Pure. One record as a CSV line (no line break). */
export function csvLine(record: ExportRecord, typed = false): string {
  const data = record.data === null ? '' : JSON.stringify(record.data);
  const fields = [record.id, record.parentId ?? '', record.name, record.position, data];
  return (typed ? [...fields, record.type ?? ''] : fields).map(csvField).join(',');
}

/**
 * Every node of the table (or of the subtree of `root`), parents before their children, each tree
 * in document order: the roots page by page, then each tree in pages of descendants in
 * PREORDER (a Query per parent with children). Reads as any client does: as if every job were done.
 */
export async function* exportedNodes(store: TreeStore, root: string | null): AsyncGenerator<ExportRecord> {
  const tops: TreeNode[] = [];
  if (root !== null) {
    const node = (await store.getNodes([root])).get(root);
    if (!node) throw notFound('node', root);
    tops.push(node);
  }
  let after: string | undefined;
  for (let more = root === null; more;) {
    const page = await store.children(null, { first: PAGE, after });
    tops.push(...page.edges.map((edge) => edge.node));
    more = page.hasNextPage;
    after = page.edges.at(-1)?.cursor;
  }
  for (const top of tops) {
    let cursor: string | undefined;
    for (let more = true; more;) {
      const page = await store.descendants(
        top,
        { minDepth: 0, maxDepth: null },
        { first: PAGE, after: cursor },
        'PREORDER',
      );
      for (const { node } of page.edges) yield recordOf(node, root);
      more = page.hasNextPage;
      cursor = page.edges.at(-1)?.cursor;
    }
  }
}

/**
 * Writes the records in `format` through `write` (which may wait, for backpressure): JSON, an
 * array with one record per line; CSV, the header then one line per record, with the `type`
 * column when `typed` (NODE_TYPES). `onRecord` counts.
 */
export async function writeExport(
  records: AsyncIterable<ExportRecord>,
  format: ExportFormat,
  write: (text: string) => Promise<void>,
  onRecord: () => void = () => {},
  typed = false,
): Promise<number> {
  let count = 0;
  await write(format === 'csv' ? `${typed ? TYPED_CSV_HEADER : CSV_HEADER}\n` : '[');
  for await (const record of records) {
    const line =
      format === 'csv' ? `${csvLine(record, typed)}\n` : `${count === 0 ? '\n' : ',\n'}${JSON.stringify(record)}`;
    await write(line);
    count++;
    onRecord();
  }
  if (format === 'json') await write(count === 0 ? ']\n' : '\n]\n');
  return count;
}
