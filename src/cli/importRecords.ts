import type { TypedData } from '../nodeTypes/typedData.js';
import { isTreeError } from '../errors.js';
import { checkData, checkId, checkName, grouped, MAX_DATA_BYTES, MAX_NAME_LENGTH } from '../storage/validation.js';
import { characterNamed, described, excerpt, jsonExcerpt, quoted, type ImportProblem } from './importProblems.js';

/** One node to import, with where it was read (for the problems reported). */
export interface ImportRecord {
  id: string;
  parentId: string | null;
  name: string;
  data: Record<string, unknown> | null;
  /** Its node type (NODE_TYPES), when given. */
  type: string | null;
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
export function parseImport(text: string, format: 'json' | 'csv', typed?: TypedData): ParsedImport {
  const parsed: Reading = { records: [], problems: [], unplaced: new Set(), seen: new Map(), typed };
  if (format === 'csv') csvRecords(text, parsed);
  else jsonRecords(text, parsed);
  if (typed) checkChildTypes(parsed, typed);
  if (typed) checkPathKeys(parsed, typed);
  const { records, problems, unplaced } = parsed;
  return { records, problems: problems.sort((a, b) => a.place - b.place), unplaced };
}

/** Each record whose parent is in the file, of a type the parent's type may hold (NODE_TYPES). */
function checkChildTypes(reading: Reading, typed: TypedData): void {
  const byId = new Map(reading.records.map((r) => [r.id, r]));
  for (const record of reading.records) {
    const parent = record.parentId === null ? undefined : byId.get(record.parentId);
    // A type the file declares not: its own problem already.
    const unknown = (type: string | null) => type !== null && !typed.nodeTypes.types.has(type);
    if (!parent || unknown(parent.type) || unknown(record.type)) continue;
    const problem = refusal(() => typed.checkChild(parent.type, record.type, parent.id));
    if (problem) reading.problems.push({ place: record.place, message: `${record.at}: ${problem}` });
  }
}

/** No two records under one parent with one path key value (NODE_TYPES's @pathKey; roots need none). */
function checkPathKeys(reading: Reading, typed: TypedData): void {
  for (const { index, first, value } of typed.samePathKeys(reading.records)) {
    const [record, earlier] = [reading.records[index]!, reading.records[first]!];
    const message = `${record.at}: path key "${value}" is taken under "${record.parentId}" by ${earlier.at}`;
    reading.problems.push({ place: record.place, message });
  }
}

/** The message of a BAD_USER_INPUT that `check` throws, or null. */
function refusal(check: () => unknown): string | null {
  try {
    check();
    return null;
  } catch (error) {
    if (isTreeError(error, 'BAD_USER_INPUT')) return error.message;
    throw error;
  }
}

/** A parse under way: what ParsedImport holds, and where each id was first seen. */
interface Reading extends ParsedImport {
  unplaced: Set<string>;
  seen: Map<string, string>;
  /** The node types records are checked against (NODE_TYPES). */
  typed: TypedData | undefined;
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

/** A record's fields as read: from JSON, any values; from CSV, strings (undefined: no such field). */
interface RawRecord {
  id: unknown;
  parentId: unknown;
  name: unknown;
  data: unknown;
  type?: unknown;
  position: unknown;
  /** CSV: the data field's text, which a problem of the data shows. */
  dataText?: string;
}

/** A field's value as text: a string as it is, another JSON value as JSON, nothing as ''. */
const fieldText = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);

const absent = (value: unknown): boolean => value === undefined || value === null || value === '';

/**
 * Checks one record's fields as a create would, each problem reported with its place, and adds it
 * to the reading: to the records when its id and parent could be read and its id is new, else
 * its id to the unplaced ones (a duplicate is only a problem). Answers its id, when readable.
 */
function add(raw: RawRecord, { at, place }: { at: string; place: number }, reading: Reading): string | null {
  const problem = (message: string | null): boolean => {
    if (message !== null) reading.problems.push({ place, message: `${at}: ${message}` });
    return message !== null;
  };
  const id = fieldText(raw.id);
  const unreadableParent = raw.parentId === UNREADABLE;
  const parentId = absent(raw.parentId) || unreadableParent ? null : fieldText(raw.parentId);
  const badId = problem(idProblem('id', raw.id));
  const badParent = unreadableParent || (parentId !== null && problem(idProblem('parentId', raw.parentId)));
  if (parentId === id) problem(`"${id}" names itself as its parent`);
  const name = fieldText(raw.name);
  problem(nameProblem(raw.name));
  const data = absent(raw.data) || problem(dataProblem(raw.data, raw.dataText)) ? null : raw.data;
  let position = absent(raw.position) ? null : fieldText(raw.position);
  if (position !== null && problem(positionProblem(position))) position = null;
  const type = typeOf(raw.type, data as Record<string, unknown> | null, reading.typed, problem);
  if (badId) return null;
  const earlier = reading.seen.get(id);
  if (earlier !== undefined) problem(`id "${id}" already used at ${earlier}`);
  else if (badParent || parentId === id) reading.unplaced.add(id);
  else
    reading.records.push({
      id,
      parentId,
      name,
      data: data as Record<string, unknown> | null,
      type,
      position,
      at,
      place,
    });
  reading.seen.set(id, earlier ?? at);
  return id;
}

/**
 * A record's node type, its data checked under it as a create checks it (a problem when not;
 * the type is kept, for the checks of its children). Null when none, or not a type's name.
 */
function typeOf(
  raw: unknown,
  data: Record<string, unknown> | null,
  typed: TypedData | undefined,
  problem: (message: string | null) => boolean,
): string | null {
  if (absent(raw)) return null;
  if (typeof raw !== 'string') return (void problem(`type must be a node type's name; got ${described(raw)}`), null);
  if (!typed) return (void problem(`type ${raw}: no node types are declared (NODE_TYPES)`), null);
  problem(refusal(() => typed.created(raw, data)));
  return raw;
}

/** Whether `check` (one of the API's input checks) takes its value. */
function passes(check: () => unknown): boolean {
  try {
    check();
    return true;
  } catch (error) {
    if (isTreeError(error)) return false;
    throw error;
  }
}

const characters = (n: number): string => `${grouped(n)} character${n === 1 ? '' : 's'}`;

/** The first character of `value` that `allowed` refuses. */
const firstRefused = (value: string, allowed: (c: string) => boolean): string | undefined =>
  [...value].find((c) => !allowed(c));

/** Pure. What is wrong with an id (or a parentId) as the API checks it, and what the file gave; null when nothing. */
function idProblem(field: 'id' | 'parentId', raw: unknown): string | null {
  const id = fieldText(raw);
  if (passes(() => checkId(id, field))) return null;
  const rule = `${field} must be 1 to 64 letters, digits, or any of _ . : -`;
  if (raw === undefined || raw === null) return `${rule}; got no ${field}`;
  if (typeof raw === 'object') return `${rule}; got ${described(raw)}`;
  if (id === '') return `${rule}; got an empty ${field}`;
  const refused = firstRefused(id, (c) => passes(() => checkId(c)));
  if (refused !== undefined) return `${rule}; got ${quoted(id)}, which holds ${characterNamed(refused)}`;
  return `${rule}; got ${characters([...id].length)}: ${quoted(id)}`;
}

/** Pure. What is wrong with a name as the API checks it, and what the file gave; null when nothing. */
function nameProblem(raw: unknown): string | null {
  const name = fieldText(raw);
  if (passes(() => checkName(name))) return null;
  const length = [...name].length;
  const rule = `name must be 1 to ${MAX_NAME_LENGTH} characters and not blank`;
  if (length === 0) return `${rule}; got ${raw === undefined || raw === null ? 'no name' : 'an empty name'}`;
  if (length > MAX_NAME_LENGTH) return `${rule}; got ${characters(length)}: ${quoted(name)}`;
  if (name.trim() === '') return `${rule}; got a blank name: ${quoted(name)}`;
  const refused = firstRefused(name, (c) => excerpt(c) === c) ?? '';
  return (
    'name must be well-formed Unicode without control characters (tabs, line breaks); ' +
    `got ${quoted(name)}, which holds ${characterNamed(refused)}`
  );
}

/**
 * Pure. What is wrong with a record's data as the API checks it, and an excerpt of it (`source`:
 * its text in the file, when the file has one); null when nothing. Data of too many bytes is
 * said so, whatever else may be wrong in it.
 */
function dataProblem(data: unknown, source?: string): string | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return `data must be a JSON object; got ${described(data)}`;
  }
  try {
    checkData(data as Record<string, unknown>);
    return null;
  } catch (error) {
    if (!isTreeError(error)) throw error;
    const shown = source === undefined ? jsonExcerpt(data) : excerpt(source);
    const bytes = jsonBytes(data);
    if (bytes === undefined || bytes <= MAX_DATA_BYTES) return `${error.message}; got ${shown}`;
    const rule = `data must be at most ${grouped(MAX_DATA_BYTES)} bytes of JSON in UTF-8`;
    return `${rule}; got ${grouped(bytes)} bytes: ${shown}`;
  }
}

/** The bytes of a value's JSON in UTF-8; undefined when it is nested too deep to write. */
function jsonBytes(value: unknown): number | undefined {
  try {
    return Buffer.byteLength(JSON.stringify(value));
  } catch {
    return undefined;
  }
}

/** A position: an export's sort key. */
const POSITION = /^[0-9A-Za-z]{1,200}$/;

/** Pure. What is wrong with a position, and what the file gave; null when nothing. */
function positionProblem(position: string): string | null {
  if (POSITION.test(position)) return null;
  const rule = 'position must be 1 to 200 letters and digits (a sort key, as an export writes)';
  const refused = firstRefused(position, (c) => POSITION.test(c));
  if (refused !== undefined) return `${rule}; got ${quoted(position)}, which holds ${characterNamed(refused)}`;
  return `${rule}; got ${characters([...position].length)}: ${quoted(position)}`;
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
  if (!Array.isArray(parsed)) {
    return void fileProblem(`the file must hold a JSON array of records; got ${described(parsed)}`);
  }
  let count = 0;
  const visit = (raw: unknown, parentId: string | typeof UNREADABLE | undefined) => {
    const where = { at: `record ${++count}`, place: count };
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      reading.problems.push({ ...where, message: `${where.at}: a record must be an object; got ${described(raw)}` });
      return;
    }
    const fields = raw as Record<string, unknown>;
    const id = add(
      {
        id: fields.id,
        parentId: parentId === undefined ? fields.parentId : parentId,
        name: fields.name,
        data: fields.data,
        type: fields.type,
        position: fields.position,
      },
      where,
      reading,
    );
    if (fields.children === undefined) return;
    if (!Array.isArray(fields.children)) {
      const message = `${where.at}: children must be an array; got ${described(fields.children)}`;
      reading.problems.push({ ...where, message });
      return;
    }
    for (const child of fields.children) visit(child, id ?? UNREADABLE);
  };
  for (const raw of parsed) visit(raw, undefined);
}

/**
 * JSON.parse's message on one line (it may quote the text), with the line of the position it
 * names and the text around that position; or, when the text ends too soon, its end.
 */
function jsonSyntaxError(error: unknown, text: string): string {
  const message = excerpt(error instanceof Error ? error.message : String(error), Infinity);
  if (text.trim() === '') return `${message} (the file is empty)`;
  const position = /at position (\d+)/.exec(message);
  const at = position ? Number(position[1]) : /end of JSON input/.test(message) ? text.length : undefined;
  if (at === undefined) return message;
  const line = /\(line \d+ column \d+\)/.test(message) ? '' : ` (line ${text.slice(0, at).split('\n').length})`;
  const from = Math.max(0, at - 30);
  const near = `${from > 0 ? '…' : ''}${excerpt(text.slice(from, at + 10))}${at + 10 < text.length ? '…' : ''}`;
  return `${message}${line}, near: ${near}`;
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
      message:
        `line ${header.line}: the header must name ${missing.join(', ')} (id,parentId,name[,position][,data]); ` +
        `got ${header.fields.join('') === '' ? 'an empty line' : quoted(header.fields.join(','))}`,
    });
    return;
  }
  for (const { fields, line } of body) {
    if (fields.length === 1 && fields[0] === '') continue;
    const where = { at: `line ${line}`, place: line };
    const get = (name: string) => (column.has(name) ? fields[column.get(name)!] : undefined);
    const dataText = get('data');
    let data: unknown = dataText;
    if (dataText !== undefined && dataText !== '') {
      try {
        data = JSON.parse(dataText);
      } catch (error) {
        const why = excerpt(error instanceof Error ? error.message : String(error), Infinity);
        reading.problems.push({ ...where, message: `${where.at}: data is not JSON: ${excerpt(dataText)} (${why})` });
        data = null;
      }
    }
    add(
      {
        id: get('id'),
        parentId: get('parentId'),
        name: get('name'),
        data,
        type: get('type'),
        position: get('position'),
        dataText,
      },
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
  let inQuotes = false;
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
    if (inQuotes) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') inQuotes = false;
      else field += c;
    } else if (c === '"' && field === '') inQuotes = true;
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
  if (inQuotes) {
    problems.push({
      place: start,
      message: `line ${start}: a quoted field is not closed (no " ends it); got "${excerpt(field)}`,
    });
  }
  if (field !== '' || fields.length > 0) end();
  return rows;
}
