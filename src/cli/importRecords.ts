import { TreeError } from '../errors.js';
import { checkData, checkId, checkName } from '../storage/validation.js';
import type { ImportProblem } from './importProblems.js';

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
  /** The number in `at`: problems are listed in its order. */
  place: number;
}

/**
 * What a file holds. `records` are those whose id and parent could be read, each id once: the
 * shape of the tree is checked on them (checkImport.ts) even when some of their names or data
 * are wrong, so that one pass finds every problem. They may be written only when there are no
 * problems at all (importTree.ts refuses otherwise).
 */
export interface ParsedImport {
  records: ImportRecord[];
  /** The problems of the records themselves (fields, duplicate ids) and of the file's syntax. */
  problems: ImportProblem[];
  /**
   * Ids of records whose parent could not be read (a bad parentId, or their own id): they are
   * in the file, so their children's parent is not missing, but their place is unknown.
   */
  unplaced: ReadonlySet<string>;
}

/**
 * Pure. The records of an import file: JSON (an array of records `{id, parentId, name, data,
 * position}`, or of nested records `{id, name, data, children: [...]}`) or CSV (a header naming
 * `id`, `parentId` and `name`, and optionally `position` and `data`, the latter as JSON; RFC 4180
 * quoting). Every record is checked as the API checks a create: its id, name and data; and each
 * id is used once. The shape of the tree (cycles, parents, depths, ids taken in the table) is
 * checked by checkImport.ts. Never throws: the problems come with the records.
 */
export function parseImport(text: string, format: 'json' | 'csv'): ParsedImport {
  const parsed: Reading = { records: [], problems: [], unplaced: new Set(), seen: new Map() };
  if (format === 'csv') csvRecords(text, parsed);
  else jsonRecords(text, parsed);
  const { records, problems, unplaced } = parsed;
  return { records, problems, unplaced };
}

/** A parse under way: what ParsedImport holds, and where each id was first seen. */
interface Reading extends ParsedImport {
  unplaced: Set<string>;
  seen: Map<string, string>;
}

/**
 * Pure. The records in parent-first order with their depth in the file (0: its parent is outside
 * it or none). For records without a cycle of parents: those checkImport.ts found no problem in.
 */
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

/**
 * The parent given to the children of a nested record whose own id cannot be read: they are
 * unplaced, with no problem of their own.
 */
const UNREADABLE = Symbol('unreadable parent');

/**
 * Checks one record's fields as a create would, each problem reported with its place, and adds it
 * to the reading: to the records when its id and parent could be read and its id is new, else
 * its id to the unplaced ones (a duplicate is only a problem). Answers its id, when readable.
 */
function add(
  raw: { id: unknown; parentId: unknown; name: unknown; data: unknown; position: unknown },
  { at, place }: { at: string; place: number },
  reading: Reading,
): string | null {
  const problem = (message: string) => reading.problems.push({ place, message: `${at}: ${message}` });
  const fails = (check: () => void): boolean => {
    try {
      check();
      return false;
    } catch (error) {
      problem(error instanceof TreeError ? error.message : String(error));
      return true;
    }
  };
  const text = (value: unknown) =>
    typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
  const id = text(raw.id);
  const unreadableParent = raw.parentId === UNREADABLE;
  const parentId =
    raw.parentId === null || raw.parentId === undefined || raw.parentId === '' || unreadableParent
      ? null
      : text(raw.parentId);
  const name = text(raw.name);
  const badId = fails(() => checkId(id));
  const badParent = unreadableParent || (parentId !== null && fails(() => checkId(parentId, 'parentId')));
  if (parentId === id) problem(`"${id}" names itself as its parent`);
  fails(() => checkName(name));
  let data = raw.data === undefined || raw.data === null || raw.data === '' ? null : raw.data;
  if (data !== null && (typeof data !== 'object' || Array.isArray(data))) {
    problem('data must be a JSON object');
    data = null;
  } else fails(() => checkData(data as Record<string, unknown> | null));
  let position = raw.position === undefined || raw.position === null || raw.position === '' ? null : text(raw.position);
  if (position !== null && !/^[0-9A-Za-z]{1,200}$/.test(position)) {
    problem(`position must be a sort key of letters and digits, got "${position.slice(0, 40)}"`);
    position = null;
  }
  if (badId) return null;
  const earlier = reading.seen.get(id);
  if (earlier !== undefined) problem(`id "${id}" already used at ${earlier}`);
  else if (badParent || parentId === id) reading.unplaced.add(id);
  else reading.records.push({ id, parentId, name, data: data as Record<string, unknown> | null, position, at, place });
  reading.seen.set(id, earlier ?? at);
  return id;
}

function jsonRecords(text: string, reading: Reading): void {
  const fileProblem = (message: string) => reading.problems.push({ place: 0, message });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // A JSON import is an array: text that does not start as one may be a CSV file read as JSON.
    const csv = /^[[{]/.test(text.trimStart())
      ? ''
      : '; for a CSV file, give --format csv (its header names id,parentId,name)';
    return void fileProblem(`the file is not JSON: ${jsonSyntaxError(error, text)}${csv}`);
  }
  if (!Array.isArray(parsed)) return void fileProblem('the file must hold a JSON array of records');
  let count = 0;
  const visit = (raw: unknown, parentId: string | typeof UNREADABLE | undefined) => {
    const where = { at: `record ${++count}`, place: count };
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      reading.problems.push({ ...where, message: `${where.at}: a record must be an object` });
      return;
    }
    const fields = raw as Record<string, unknown>;
    const id = add(
      {
        id: fields.id,
        parentId: parentId === undefined ? fields.parentId : parentId,
        name: fields.name,
        data: fields.data,
        position: fields.position,
      },
      where,
      reading,
    );
    if (fields.children === undefined) return;
    if (!Array.isArray(fields.children)) {
      reading.problems.push({ ...where, message: `${where.at}: children must be an array` });
      return;
    }
    for (const child of fields.children) visit(child, id ?? UNREADABLE);
  };
  for (const raw of parsed) visit(raw, undefined);
}

/** JSON.parse's message on one line (it may quote the text), with the line of the position it names. */
function jsonSyntaxError(error: unknown, text: string): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\r?\n/g, '\\n');
  const position = /at position (\d+)/.exec(message);
  if (!position || /\(line \d+ column \d+\)/.test(message)) return message;
  return `${message} (line ${text.slice(0, Number(position[1])).split('\n').length})`;
}

function csvRecords(text: string, reading: Reading): void {
  const rows = csvRows(text, reading.problems);
  const [header, ...body] = rows;
  if (!header) {
    reading.problems.push({
      place: 0,
      message: 'the file is empty: it needs a header (id,parentId,name[,position][,data])',
    });
    return;
  }
  const column = new Map(header.fields.map((name, i) => [name.trim(), i]));
  const missing = ['id', 'parentId', 'name'].filter((name) => !column.has(name));
  if (missing.length > 0) {
    reading.problems.push({
      place: header.line,
      message: `line ${header.line}: the header must name ${missing.join(', ')} (id,parentId,name[,position][,data])`,
    });
    return;
  }
  for (const { fields, line } of body) {
    if (fields.length === 1 && fields[0] === '') continue;
    const where = { at: `line ${line}`, place: line };
    const get = (name: string) => (column.has(name) ? fields[column.get(name)!] : undefined);
    let data: unknown = get('data');
    if (typeof data === 'string' && data !== '') {
      try {
        data = JSON.parse(data);
      } catch {
        reading.problems.push({ ...where, message: `${where.at}: data is not JSON` });
        data = null;
      }
    }
    add(
      { id: get('id'), parentId: get('parentId'), name: get('name'), data, position: get('position') },
      where,
      reading,
    );
  }
}

/** RFC 4180 rows, each with the line it starts on (a quoted field may hold line breaks). */
function csvRows(text: string, problems: ImportProblem[]): Array<{ fields: string[]; line: number }> {
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
  if (quoted) problems.push({ place: start, message: `line ${start}: a quoted field is not closed` });
  if (field !== '' || fields.length > 0) end();
  return rows;
}
