import type { ExportFormat } from './exportTree.js';
import { excerpt } from './importProblems.js';

/** The columns a CSV import's header must name (importRecords.ts). */
const CSV_COLUMNS = ['id', 'parentId', 'name'];

/**
 * Pure. The format of an import file given without --format, and a note when its content decided
 * against its extension. The content decides when it can: a JSON import is an array, so it starts
 * with `[` (or `{`, refused then as not an array), which no CSV header does; a first line naming
 * id, parentId and name as CSV fields is a CSV header, which no JSON file has. Otherwise (an empty
 * or mangled file) the extension decides, `.csv` for CSV and anything else for JSON, and the
 * reader of that format says what is wrong.
 */
export function importFormat(file: string, text: string): { format: ExportFormat; note: string | null } {
  const byExtension: ExportFormat = file.toLowerCase().endsWith('.csv') ? 'csv' : 'json';
  const start = text.replace(/^\uFEFF/, '').trimStart();
  const firstLine = start.split('\n', 1)[0]!.replace(/\r$/, '');
  const columns = firstLine.split(',').map((field) => field.trim().replace(/^"(.*)"$/, '$1'));
  const byContent: ExportFormat | null =
    start.startsWith('[') || start.startsWith('{')
      ? 'json'
      : CSV_COLUMNS.every((column) => columns.includes(column))
        ? 'csv'
        : null;
  const format = byContent ?? byExtension;
  if (format === byExtension) return { format, note: null };
  const why =
    format === 'csv' ? `its first line is a CSV header (${excerpt(firstLine, 80)})` : 'it starts as JSON does';
  return { format, note: `reading ${file} as ${format.toUpperCase()}: ${why}` };
}
