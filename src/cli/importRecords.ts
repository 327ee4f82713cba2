import { TreeError } from '../errors.js';
import { checkData, checkId, checkName } from '../storage/validation.js';

/** One node to import, with where it was read (for the problems reported). */
export interface ImportRecord {
  id: string;
  parentId: string | null;
  name: string;
  data: Record<string, unknown> | null;
  /** Sibling order when given (an export's positions); otherwise the order of the file. */
  position: string | null;
  /** `line 12` (CSV) or `record 7` (JSON, counted depth-first from 1). */
  at: string;
}

/** What is wrong with a file, each problem with its line or record. */
export class ImportProblems extends Error {
  constructor(readonly problems: string[]) {
    super(
      `the file has ${problems.length} problem(s); nothing was written:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
    this.name = 'ImportProblems';
  }
}

/** The most problems listed (the file is refused whole either way). */
const MAX_LISTED = 50;

/**
 * Pure. The records of an import file: JSON (an array of records `{id, parentId, name, data,
 * position}`, or of nested records `{id, name, data, children: [...]}`) or CSV (a header naming
 * `id`, `parentId` and `name`, and optionally `position` and `data`, the latter as JSON; RFC 4180
 * quoting). Every record is checked as the API checks a create: its id, name and data; the file
 * as a whole for duplicate ids and cycles of parents (the parents it names that are not in it,
 * and the depths, are checked in the table: importTree.ts). Throws ImportProblems listing every
 * problem, or returns the records.
 */
export function parseImport(text: string, format: 'json' | 'csv'): ImportRecord[] {
  const problems: string[] = [];
  const records = format === 'csv' ? csvRecords(text, problems) : jsonRecords(text, problems);
  const byId = new Map<string, ImportRecord>();
  for (const record of records) {
    const earlier = byId.get(record.id);
    if (earlier) problems.push(`${record.at}: id "${record.id}" already used at ${earlier.at}`);
    else byId.set(record.id, record);
  }
  // Parent pointers inside the file must end at a root or outside it, never loop.
  const settled = new Set<string>();
  for (const record of records) {
    const chain = new Set<ImportRecord>();
    for (
      let at: ImportRecord | undefined = record;
      at && !settled.has(at.id);
      at = at.parentId === null ? undefined : byId.get(at.parentId)
    ) {
      if (chain.has(at)) {
        problems.push(
          `${record.at}: "${record.id}" is in a cycle of parents: ${[...chain, at].map((r) => r.id).join(' -> ')}`,
        );
        break;
      }
      chain.add(at);
    }
    for (const r of chain) settled.add(r.id);
  }
  if (problems.length > 0)
    throw new ImportProblems(
      problems
        .slice(0, MAX_LISTED)
        .concat(problems.length > MAX_LISTED ? [`... and ${problems.length - MAX_LISTED} more`] : []),
    );
  return records;
}

/** Pure. The records in parent-first order with their depth in the file (0: its parent is outside it or none). */
export function inParentOrder(records: readonly ImportRecord[]): Array<{ record: ImportRecord; depth: number }> {
  const byId = new Map(records.map((r) => [r.id, r]));
  const depth = new Map<string, number>();
  for (const record of records) {
    // Up to the first ancestor whose depth is known (or the top), then down again: no recursion.
    const chain: ImportRecord[] = [];
    let at: ImportRecord | undefined = record;
    while (at && !depth.has(at.id)) {
      chain.push(at);
      at = at.parentId === null ? undefined : byId.get(at.parentId);
    }
    let d = at ? depth.get(at.id)! : -1;
    for (const r of chain.reverse()) depth.set(r.id, ++d);
  }
  return records.map((record) => ({ record, depth: depth.get(record.id)! })).sort((a, b) => a.depth - b.depth);
}

/** Checks one record's fields as a create would; a problem is reported with its place. */
function checked(
  raw: { id: unknown; parentId: unknown; name: unknown; data: unknown; position: unknown },
  at: string,
  problems: string[],
): ImportRecord | null {
  const before = problems.length;
  const attempt = (check: () => void) => {
    try {
      check();
    } catch (error) {
      problems.push(`${at}: ${error instanceof TreeError ? error.message : String(error)}`);
    }
  };
  const text = (value: unknown) =>
    typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
  const id = text(raw.id);
  const parentId =
    raw.parentId === null || raw.parentId === undefined || raw.parentId === '' ? null : text(raw.parentId);
  const name = text(raw.name);
  attempt(() => checkId(id));
  if (parentId !== null) attempt(() => checkId(parentId, 'parentId'));
  if (parentId === id) problems.push(`${at}: "${id}" names itself as its parent`);
  attempt(() => checkName(name));
  const data = raw.data === undefined || raw.data === null || raw.data === '' ? null : raw.data;
  if (data !== null && (typeof data !== 'object' || Array.isArray(data)))
    problems.push(`${at}: data must be a JSON object`);
  else attempt(() => checkData(data as Record<string, unknown> | null));
  const position =
    raw.position === undefined || raw.position === null || raw.position === '' ? null : text(raw.position);
  if (position !== null && !/^[0-9A-Za-z]{1,200}$/.test(position))
    problems.push(`${at}: position must be a sort key of letters and digits, got "${position.slice(0, 40)}"`);
  if (problems.length > before) return null;
  return { id, parentId, name, data: data as Record<string, unknown> | null, position, at };
}

function jsonRecords(text: string, problems: string[]): ImportRecord[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    problems.push(`the file is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
  if (!Array.isArray(parsed)) {
    problems.push('the file must hold a JSON array of records');
    return [];
  }
  const records: ImportRecord[] = [];
  let count = 0;
  const visit = (raw: unknown, parentId: string | null | undefined) => {
    const at = `record ${++count}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems.push(`${at}: a record must be an object`);
      return;
    }
    const fields = raw as Record<string, unknown>;
    const record = checked(
      {
        id: fields.id,
        parentId: parentId === undefined ? fields.parentId : parentId,
        name: fields.name,
        data: fields.data,
        position: fields.position,
      },
      at,
      problems,
    );
    if (record) records.push(record);
    if (fields.children === undefined) return;
    if (!Array.isArray(fields.children)) {
      problems.push(`${at}: children must be an array`);
      return;
    }
    for (const child of fields.children) visit(child, record?.id ?? String(fields.id));
  };
  for (const raw of parsed) visit(raw, undefined);
  return records;
}

function csvRecords(text: string, problems: string[]): ImportRecord[] {
  const rows = csvRows(text, problems);
  const [header, ...body] = rows;
  if (!header) {
    problems.push('the file is empty: it needs a header (id,parentId,name[,position][,data])');
    return [];
  }
  const column = new Map(header.fields.map((name, i) => [name.trim(), i]));
  const missing = ['id', 'parentId', 'name'].filter((name) => !column.has(name));
  if (missing.length > 0) {
    problems.push(
      `line ${header.line}: the header must name ${missing.join(', ')} (id,parentId,name[,position][,data])`,
    );
    return [];
  }
  const records: ImportRecord[] = [];
  for (const { fields, line } of body) {
    if (fields.length === 1 && fields[0] === '') continue;
    const get = (name: string) => (column.has(name) ? fields[column.get(name)!] : undefined);
    let data: unknown = get('data');
    if (typeof data === 'string' && data !== '') {
      try {
        data = JSON.parse(data);
      } catch {
        problems.push(`line ${line}: data is not JSON`);
        continue;
      }
    }
    const record = checked(
      { id: get('id'), parentId: get('parentId'), name: get('name'), data, position: get('position') },
      `line ${line}`,
      problems,
    );
    if (record) records.push(record);
  }
  return records;
}

/** RFC 4180 rows, each with the line it starts on (a quoted field may hold line breaks). */
function csvRows(text: string, problems: string[]): Array<{ fields: string[]; line: number }> {
  const rows: Array<{ fields: string[]; line: number }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const end = () => {
    fields.push(field);
    rows.push({ fields, line: start });
    fields = [];
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') line++;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      if (c === '\r') {
        i++;
        line++;
      }
      end();
      start = line;
    } else field += c;
  }
  if (quoted) problems.push(`line ${start}: a quoted field is not closed`);
  if (field !== '' || fields.length > 0) end();
  return rows;
}
