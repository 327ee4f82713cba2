import { isTreeError } from '../errors.js';
import type { TypedData } from '../nodeTypes/typedData.js';
import type { ImportProblem } from './importProblems.js';
import type { ImportRecord, ParsedImport } from './importRecords.js';

/** What the table holds that an import file is checked against (read by importTree.ts). */
export interface TableFacts {
  /** The parent (null: a root) of each node of the table whose id a record of the file has. */
  parentOf: ReadonlyMap<string, string | null>;
  /** The depth of each node of the table that a record names as its parent, from outside the file. */
  depthOf: ReadonlyMap<string, number>;
  /** The node type of each of those parents (null: untyped). */
  typeOf?: ReadonlyMap<string, string | null>;
}

/**
 * Pure. Every problem of a parsed file in one pass, in the order of its lines or records: its
 * own (parseImport: syntax, fields, duplicate ids) and those of the trees it describes: cycles of
 * parents, parents neither in the file nor in the table, records that would lie deeper than
 * maxTreeDepth, ids taken by a node elsewhere in the table (an id taken under the same parent is
 * a record imported already, not a problem). Nothing is reported twice for one cause: a record
 * under a cycle, or under a parent whose place is unknown, has no depth of its own to check.
 * Empty: the file may be written.
 */
export function checkImport(
  parsed: ParsedImport,
  table: TableFacts,
  maxTreeDepth: number,
  typed?: TypedData,
): ImportProblem[] {
  const problems = [...parsed.problems];
  const problem = (record: ImportRecord, message: string) =>
    problems.push({ place: record.place, message: `${record.at}: ${message}` });
  const inFile = new Map(parsed.records.map((r) => [r.id, r]));
  const shape = shapeOf(parsed.records, inFile, problems);
  for (const record of parsed.records) {
    const { id, parentId } = record;
    const there = table.parentOf.get(id);
    if (there !== undefined && there !== parentId) {
      problem(record, `id "${id}" is taken by a node ${there === null ? 'that is a root' : `under "${there}"`}`);
    }
    if (parentId !== null && !inFile.has(parentId) && !parsed.unplaced.has(parentId) && !table.depthOf.has(parentId)) {
      problem(record, `parent "${parentId}" is neither in the file nor in the table`);
    }
    const parentType = parentId === null || inFile.has(parentId) ? undefined : table.typeOf?.get(parentId);
    if (typed && parentType !== undefined) {
      try {
        typed.checkChild(parentType, record.type, parentId);
      } catch (error) {
        if (!isTreeError(error, 'BAD_USER_INPUT')) throw error;
        problem(record, error.message);
      }
    }
    const depth = depthOf(shape.get(record.id), table);
    if (depth !== undefined && depth > maxTreeDepth) {
      problem(record, `"${id}" would lie at depth ${depth}, past MAX_TREE_DEPTH (${maxTreeDepth})`);
    }
  }
  return problems.sort((a, b) => a.place - b.place);
}

/**
 * A record's place in the file: its depth below its top record (whose parent is not in the
 * file); null in or under a cycle.
 */
type Place = { top: ImportRecord; depth: number } | null;

/** Each record's place, every cycle of parents reported once. Walks without recursion. */
function shapeOf(
  records: readonly ImportRecord[],
  inFile: ReadonlyMap<string, ImportRecord>,
  problems: ImportProblem[],
): Map<string, Place> {
  const shape = new Map<string, Place>();
  for (const record of records) {
    // Up to the first record whose place is known, the top, or a record met twice (a cycle) ...
    const chain: ImportRecord[] = [];
    const onChain = new Set<string>();
    let at: ImportRecord | undefined = record;
    while (at && !shape.has(at.id) && !onChain.has(at.id)) {
      chain.push(at);
      onChain.add(at.id);
      at = at.parentId === null ? undefined : inFile.get(at.parentId);
    }
    const cycle = at !== undefined && onChain.has(at.id);
    if (cycle) reportCycle(chain.slice(chain.indexOf(at!)), problems);
    // ... then down again.
    let above: Place | undefined = at === undefined ? undefined : cycle ? null : shape.get(at.id);
    for (const r of chain.reverse()) {
      above = above === null ? null : { top: above?.top ?? r, depth: above === undefined ? 0 : above.depth + 1 };
      shape.set(r.id, above);
    }
  }
  return shape;
}

/** One problem for a cycle (each member's parent the next's id), at its member first in the file. */
function reportCycle(members: ImportRecord[], problems: ImportProblem[]): void {
  const first = members.reduce((a, b) => (b.place < a.place ? b : a));
  const start = members.indexOf(first);
  const ids = [...members.slice(start), ...members.slice(0, start), first].map((r) => r.id);
  problems.push({
    place: first.place,
    message: `${first.at}: "${first.id}" is in a cycle of parents: ${ids.join(' -> ')}`,
  });
}

/** The depth a record would have in the table; undefined when unknown (a cycle, a parent missing or unplaced). */
function depthOf(place: Place | undefined, table: TableFacts): number | undefined {
  if (!place) return undefined;
  if (place.top.parentId === null) return place.depth;
  const parentDepth = table.depthOf.get(place.top.parentId);
  return parentDepth === undefined ? undefined : parentDepth + 1 + place.depth;
}
