import { badInput } from '../errors.js';
import type { TreeNode } from '../storage/treeStore.js';
import type { FieldScalar, NodeTypes } from './nodeTypes.js';

/**
 * A filter of nodes (`descendants(filter: ...)`, docs/contract.md "Filters"): the node's name
 * (`name: { prefix, eq, in }`), its type (`type: [Product]`), each field of the node types by its
 * name (`price: { gte: 10 }`, `status: { in: [LIVE] }`), combined: every condition of one filter
 * holds (and), `and`, `or`, `not`. A node without the field fails a comparison on it; on a list
 * field a comparison holds when one of its items meets it.
 */
export interface NodeFilter {
  name?: Comparison | null;
  type?: string[] | null;
  and?: NodeFilter[] | null;
  or?: NodeFilter[] | null;
  not?: NodeFilter | null;
  [field: string]: unknown;
}

/** The comparisons of a field's filter (which of them a field's type offers: comparisonsOf). */
export interface Comparison {
  eq?: unknown;
  ne?: unknown;
  in?: unknown[] | null;
  gt?: unknown;
  gte?: unknown;
  lt?: unknown;
  lte?: unknown;
  prefix?: string | null;
}

/** The comparisons each kind of field offers in a filter. */
export function comparisonsOf(named: FieldScalar | 'enum'): Array<keyof Comparison> {
  switch (named) {
    case 'String':
      return ['eq', 'ne', 'in', 'prefix', 'gt', 'gte', 'lt', 'lte'];
    case 'Int':
    case 'Float':
    case 'DateTime':
      return ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte'];
    case 'Boolean':
      return ['eq', 'ne'];
    default:
      return ['eq', 'ne', 'in'];
  }
}

const MAX_CONDITIONS = 50;

/** The filter as a test of a node; BAD_USER_INPUT for an empty filter or one past 50 conditions. */
export function nodeTest(filter: NodeFilter, nodeTypes: NodeTypes | undefined): (node: TreeNode) => boolean {
  let conditions = 0;
  const dates = new Set(
    [...(nodeTypes?.types.values() ?? [])].flatMap((t) =>
      t.fields.filter((f) => f.type.named === 'DateTime').map((f) => f.name),
    ),
  );
  const compile = (f: NodeFilter): ((node: TreeNode) => boolean) => {
    const tests: Array<(node: TreeNode) => boolean> = [];
    for (const [key, value] of Object.entries(f)) {
      if (value == null) continue;
      conditions += 1;
      if (key === 'and') tests.push(all((value as NodeFilter[]).map(compile)));
      else if (key === 'or') tests.push(any((value as NodeFilter[]).map(compile)));
      else if (key === 'not') {
        const inner = compile(value as NodeFilter);
        tests.push((node) => !inner(node));
      } else if (key === 'type') {
        const types = new Set(value as string[]);
        tests.push((node) => types.has(node.type ?? ''));
      } else if (key === 'name') tests.push(compared((node) => node.name, value as Comparison, false));
      else tests.push(compared((node) => node.data?.[key], value as Comparison, dates.has(key)));
    }
    if (tests.length === 0) throw badInput('a filter holds at least one condition', { field: 'filter' });
    return all(tests);
  };
  const test = compile(filter);
  if (conditions > MAX_CONDITIONS) {
    throw badInput(`a filter holds at most ${MAX_CONDITIONS} conditions, got ${conditions}`, { field: 'filter' });
  }
  return test;
}

const all = (tests: Array<(node: TreeNode) => boolean>) => (node: TreeNode) => tests.every((t) => t(node));
const any = (tests: Array<(node: TreeNode) => boolean>) => (node: TreeNode) => tests.some((t) => t(node));

/** A comparison of one value of a node (any item of a list), every operator given holding. */
function compared(
  read: (node: TreeNode) => unknown,
  comparison: Comparison,
  date: boolean,
): (node: TreeNode) => boolean {
  const key = (value: unknown) => (date && typeof value === 'string' ? Date.parse(value) : value);
  const checks = Object.entries(comparison)
    .filter(([, operand]) => operand != null)
    .map(([op, operand]) => operatorTest(op as keyof Comparison, operand, key));
  return (node) => {
    const value = read(node);
    const values = Array.isArray(value) ? value : [value];
    return values.some((v) => v != null && checks.every((check) => check(v)));
  };
}

function operatorTest(
  op: keyof Comparison,
  operand: unknown,
  key: (value: unknown) => unknown,
): (value: unknown) => boolean {
  const o = key(operand) as number | string;
  switch (op) {
    case 'eq':
      return (v) => key(v) === o;
    case 'ne':
      return (v) => key(v) !== o;
    case 'in': {
      const set = new Set((operand as unknown[]).map(key));
      return (v) => set.has(key(v));
    }
    case 'prefix':
      return (v) => typeof v === 'string' && v.startsWith(operand as string);
    case 'gt':
      return (v) => (key(v) as number | string) > o;
    case 'gte':
      return (v) => (key(v) as number | string) >= o;
    case 'lt':
      return (v) => (key(v) as number | string) < o;
    case 'lte':
      return (v) => (key(v) as number | string) <= o;
  }
}
