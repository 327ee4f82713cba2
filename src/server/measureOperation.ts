import {
  Kind,
  valueFromASTUntyped,
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type InlineFragmentNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { DEFAULT_PAGE_SIZE } from '../storage/validation.js';

/**
 * The measure of an operation that the limits judge (limitsPlugin.ts, armorRules.ts): its nesting,
 * its aliases, and an estimate of how many nodes it may return. Each list field (roots, children,
 * descendants, jobs, ancestors, nodes) multiplies by its `first` (its `last` read backwards; the
 * number of ids; MAX_TREE_DEPTH for ancestors) the count of the list it sits in.
 */
export interface OperationMeasure {
  nesting: number;
  aliases: number;
  nodes: number;
  /** The response path of the deepest field (the first one found at that depth). */
  deepestAt: string;
  /** The path of the field at which the node estimate first went over `maxNodes`. */
  nodesOverAt?: string;
}

/** What a measure takes beside the operation and its fragments; every one has a default. */
export interface MeasureOptions {
  /** The variables sent (those not sent count with their definitions' defaults). */
  variables?: Record<string, unknown>;
  /** The node limit, past which `nodesOverAt` is looked for (default: none). */
  maxNodes?: number;
  /** The length of an `ancestors` list: the tree's depth limit. */
  ancestors?: number;
  /** The root field a name stands for (under SCHEMA_PREFIX, `treeRoots` is `roots`). */
  rootField?: (name: string) => string;
}

const LIST_FIELDS = new Set(['roots', 'children', 'descendants', 'jobs']);
/** What `ancestors` may return when the tree's depth limit is not given: MAX_TREE_DEPTH's default. */
const DEFAULT_ANCESTORS = 64;
/** The root fields whose list is as long as an argument: Query.nodes(ids:), a gateway's _entities. */
const LENGTH_ARGUMENTS: Record<string, string> = { nodes: 'ids', _entities: 'representations' };

/** What a selection set adds, whatever it sits under: nodes per node of the list around it. */
interface Summary {
  depth: number;
  /** The path of its deepest field, relative to the set. */
  deepest: string[];
  aliases: number;
  nodes: number;
}

const EMPTY: Summary = { depth: 0, deepest: [], aliases: 0, nodes: 0 };

/** The nodes a field lists per node it sits under; null for a field that is not a list. */
type ListSize = (field: FieldNode, top: boolean) => number | null;

/** The summaries of an operation's selection sets and fragments, each made once. */
interface Summaries {
  ofSet(set: SelectionSetNode, top: boolean): Summary;
  /** A field's selection set (the search for nodesOverAt asks again). */
  ofField(set: SelectionSetNode): Summary;
  /** A fragment's; undefined for an unknown one, or a spread inside its own expansion (a cycle). */
  ofFragment(name: string, top: boolean): Summary | undefined;
}

/**
 * Measures an operation in time linear in its document: each fragment is summarised once (its
 * depth, aliases and nodes per enclosing node), however many times it is spread, so that
 * fragments spreading fragments twice over cannot make the walk exponential.
 */
export function measureOperation(
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  options: MeasureOptions = {},
): OperationMeasure {
  const { variables = {}, maxNodes = Number.POSITIVE_INFINITY, ancestors = DEFAULT_ANCESTORS } = options;
  const listSize = listSizer(variablesWithDefaults(operation, variables), ancestors, options.rootField);
  const summaries = createSummaries(fragments, listSize);
  const whole = summaries.ofSet(operation.selectionSet, true);
  const search: OverSearch = { fragments, listSize, summaries, maxNodes };
  const nodesOverAt =
    whole.nodes > maxNodes
      ? overAt(search, { set: operation.selectionSet, top: true, path: [], perNode: 1, before: 0 })
      : undefined;
  return {
    nesting: whole.depth,
    aliases: whole.aliases,
    nodes: whole.nodes,
    deepestAt: whole.deepest.join('.'),
    ...(nodesOverAt ? { nodesOverAt } : {}),
  };
}

/** The operation's variables, with the defaults its definitions give to those not sent. */
function variablesWithDefaults(
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const values = { ...variables };
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (values[name] === undefined && definition.defaultValue)
      values[name] = valueFromASTUntyped(definition.defaultValue, {});
  }
  return values;
}

/** How many nodes each list field lists, given the operation's variables. */
function listSizer(
  values: Record<string, unknown>,
  ancestors: number,
  rootField: (name: string) => string = (name) => name,
): ListSize {
  return (field, top) => {
    const name = top ? rootField(field.name.value) : field.name.value;
    if (name === 'ancestors') return ancestors;
    // A connection's `nodes` is the page already counted: only the root field's is a list of ids.
    const listArg = top ? LENGTH_ARGUMENTS[name] : undefined;
    const paged = LIST_FIELDS.has(name) ? 'first' : null;
    // A connection read backwards holds its `last`.
    const backwards = paged && field.arguments?.some((a) => a.name.value === 'last') ? 'last' : paged;
    const argName = listArg ?? backwards;
    if (argName === null) return null;
    const arg = field.arguments?.find((a) => a.name.value === argName)?.value;
    const value = arg === undefined ? undefined : valueFromASTUntyped(arg, values);
    if (listArg) return Array.isArray(value) ? value.length : 0;
    return typeof value === 'number' && value > 0 ? value : DEFAULT_PAGE_SIZE;
  };
}

/** A field's name in the response. */
const keyOf = (field: FieldNode) => field.alias?.value ?? field.name.value;

/** Adds to `total` what a part adds per node of the list around it, a level deeper under a field. */
function addSummary(total: Summary, part: Summary, perNode: number, level: string | undefined): void {
  total.aliases += part.aliases;
  total.nodes += perNode * part.nodes;
  const depth = part.depth + (level === undefined ? 0 : 1);
  if (depth > total.depth) {
    total.depth = depth;
    total.deepest = level === undefined ? part.deepest : [level, ...part.deepest];
  }
}

/** The summaries of selection sets, fields' and fragments' kept once made. */
function createSummaries(fragments: Record<string, FragmentDefinitionNode>, listSize: ListSize): Summaries {
  const byFragment = new Map<string, Summary>();
  const summarizing = new Set<string>();
  const byField = new Map<SelectionSetNode, Summary>();
  const summaries: Summaries = {
    ofSet(set, top) {
      const total = { ...EMPTY, deepest: [] as string[] };
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          const size = listSize(selection, top);
          if (selection.alias) total.aliases++;
          if (size !== null) total.nodes += size;
          const inner = selection.selectionSet ? summaries.ofField(selection.selectionSet) : EMPTY;
          addSummary(total, inner, size ?? 1, keyOf(selection));
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          addSummary(total, summaries.ofSet(selection.selectionSet, top), 1, undefined);
        } else {
          addSummary(total, summaries.ofFragment(selection.name.value, top) ?? EMPTY, 1, undefined);
        }
      }
      return total;
    },
    ofField(set) {
      let found = byField.get(set);
      if (!found) byField.set(set, (found = summaries.ofSet(set, false)));
      return found;
    },
    ofFragment(name, top) {
      const fragment = fragments[name];
      const id = `${name}:${top}`;
      if (!fragment || summarizing.has(id)) return undefined;
      let found = byFragment.get(id);
      if (!found) {
        summarizing.add(id);
        found = summaries.ofSet(fragment.selectionSet, top);
        summarizing.delete(id);
        byFragment.set(id, found);
      }
      return found;
    },
  };
  return summaries;
}

/** What the search for nodesOverAt reads: the operation's fragments, list sizes and summaries. */
interface OverSearch {
  fragments: Record<string, FragmentDefinitionNode>;
  listSize: ListSize;
  summaries: Summaries;
  maxNodes: number;
}

/** Where the search stands: a set, its path, the nodes per node around it, the count so far. */
interface Position {
  set: SelectionSetNode;
  top: boolean;
  path: string[];
  perNode: number;
  before: number;
}

/** A selection's outcome: where the count went over (found), or the count after it. */
type Step = { found: string | undefined } | number;

/** The path of the field at which the running count first goes over maxNodes, in document order. */
function overAt(search: OverSearch, at: Position): string | undefined {
  let count = at.before;
  for (const selection of at.set.selections) {
    const step =
      selection.kind === Kind.FIELD
        ? fieldStep(search, at, selection, count)
        : spreadStep(search, at, selection, count);
    if (typeof step !== 'number') return step.found;
    count = step;
  }
  return undefined;
}

/** A field: its own list, then what its selection set adds below it. */
function fieldStep(search: OverSearch, at: Position, field: FieldNode, before: number): Step {
  const here = [...at.path, keyOf(field)];
  const size = search.listSize(field, at.top);
  const inner = size === null ? at.perNode : at.perNode * size;
  const count = size === null ? before : before + inner;
  if (count > search.maxNodes) return { found: here.join('.') };
  if (!field.selectionSet) return count;
  const below = inner * search.summaries.ofField(field.selectionSet).nodes;
  if (count + below > search.maxNodes)
    return {
      found: overAt(search, { set: field.selectionSet, top: false, path: here, perNode: inner, before: count }),
    };
  return count + below;
}

/** An inline fragment or a fragment spread: what its selection set adds, at the same level. */
function spreadStep(
  search: OverSearch,
  at: Position,
  selection: InlineFragmentNode | FragmentSpreadNode,
  before: number,
): Step {
  const inner =
    selection.kind === Kind.INLINE_FRAGMENT
      ? { set: selection.selectionSet, summary: search.summaries.ofSet(selection.selectionSet, at.top) }
      : {
          set: search.fragments[selection.name.value]?.selectionSet,
          summary: search.summaries.ofFragment(selection.name.value, at.top),
        };
  if (!inner.set || !inner.summary) return before;
  const below = at.perNode * inner.summary.nodes;
  if (before + below > search.maxNodes) return { found: overAt(search, { ...at, set: inner.set, before }) };
  return before + below;
}
