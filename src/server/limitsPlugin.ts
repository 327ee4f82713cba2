import type { ApolloServerPlugin } from '@apollo/server';
import {
  Kind,
  Lexer,
  OperationTypeNode,
  Source,
  TokenKind,
  valueFromASTUntyped,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { DynamoCost, ReadBudget } from '../dynamodb/costMeter.js';
import { badRequest, tooComplex, type TreeError } from '../errors.js';

/**
 * Refuses, before any DynamoDB call, operations longer or larger than the limits
 * (QUERY_TOO_COMPLEX); nesting, aliases and directives are graphql-armor's rules (armorRules.ts).
 * Tokens are counted before the document is parsed, so that a huge
 * document costs no parse (tokenLimitRefusal, checked by the HTTP handler: Apollo answers an
 * error thrown by a plugin before parsing as a 500); nodes is an estimate of how
 * many nodes an operation may return: each list field (roots, children, descendants, jobs,
 * ancestors, nodes) multiplies by its `first` (its `last` read backwards; the number of ids;
 * MAX_TREE_DEPTH for ancestors) the count of the list it sits in.
 */
export interface OperationLimits {
  maxTokens: number;
  /** Fields nested in fields (not the tree's depth, nor a descendants window): graphql-armor's. */
  maxNesting: number;
  /** graphql-armor's. */
  maxAliases: number;
  /** graphql-armor's. */
  maxDirectives: number;
  maxNodes: number;
}

/**
 * The static limits. The node estimate lets through the nested `children` three levels deep
 * with default arguments (1,010,100 nodes at most) and refuses four levels, or
 * `children(first: 1000)` twice nested in a third; what a tree really holds is the runtime
 * budget's business (ReadBudget: MAX_OPERATION_REQUESTS, MAX_OPERATION_ITEMS_READ).
 */
export const DEFAULT_LIMITS: OperationLimits = {
  maxTokens: 5000,
  maxNesting: 16,
  maxAliases: 100,
  maxDirectives: 50,
  maxNodes: 2_000_000,
};

/**
 * The tokens of a GraphQL document, counted as graphql-js's parser counts them for its own
 * `maxTokens`, up to `stopAfter` + 1. A document that does not lex is left to the parser, which
 * reports the syntax error.
 */
export function countTokens(body: string, stopAfter: number): number {
  const lexer = new Lexer(new Source(body));
  let count = 0;
  try {
    while (count <= stopAfter && lexer.advance().kind !== TokenKind.EOF) count++;
  } catch {
    // Not lexable: the parser reports it.
  }
  return count;
}

const LIST_FIELDS = new Set(['roots', 'children', 'descendants', 'jobs']);
const DEFAULT_FIRST = 100;
/** What `ancestors` may return when the tree's depth limit is not given: MAX_TREE_DEPTH's default. */
const DEFAULT_ANCESTORS = 64;

export interface OperationMeasure {
  nesting: number;
  aliases: number;
  nodes: number;
  /** The response path of the deepest field (the first one found at that depth). */
  deepestAt: string;
  /** The path of the field at which the node estimate first went over `maxNodes`. */
  nodesOverAt?: string;
}

/** What a selection set adds, whatever it sits under: nodes per node of the list around it. */
interface Summary {
  depth: number;
  /** The path of its deepest field, relative to the set. */
  deepest: string[];
  aliases: number;
  nodes: number;
}

const EMPTY: Summary = { depth: 0, deepest: [], aliases: 0, nodes: 0 };

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

/**
 * Measures an operation in time linear in its document: each fragment is summarised once (its
 * depth, aliases and nodes per enclosing node), however many times it is spread, so that
 * fragments spreading fragments twice over cannot make the walk exponential. Variables count
 * with the defaults of their definitions. `ancestors` (the tree's depth limit) is the length of
 * an `ancestors` list. `rootField`: the root field a name stands for (under SCHEMA_PREFIX,
 * `treeRoots` is `roots`).
 */
export function measureOperation(
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown> = {},
  maxNodes = Number.POSITIVE_INFINITY,
  ancestors = DEFAULT_ANCESTORS,
  rootField: (name: string) => string = (name) => name,
): OperationMeasure {
  const values = variablesWithDefaults(operation, variables);
  /** The nodes a field lists per node it sits under; null for a field that is not a list. */
  const listSize = (field: FieldNode, top: boolean): number | null => {
    const name = top ? rootField(field.name.value) : field.name.value;
    if (name === 'ancestors') return ancestors;
    // Query.nodes(ids:) and a gateway's _entities(representations:) are lists of the given
    // length; a connection's `nodes` is the page already counted.
    const listArg = top ? ({ nodes: 'ids', _entities: 'representations' } as Record<string, string>)[name] : undefined;
    const paged = LIST_FIELDS.has(name) ? 'first' : null;
    // A connection read backwards holds its `last`.
    const backwards = paged && field.arguments?.some((a) => a.name.value === 'last') ? 'last' : paged;
    const argName = listArg ?? backwards;
    if (argName === null) return null;
    const arg = field.arguments?.find((a) => a.name.value === argName)?.value;
    const value = arg === undefined ? undefined : valueFromASTUntyped(arg, values);
    if (listArg) return Array.isArray(value) ? value.length : 0;
    return typeof value === 'number' && value > 0 ? value : DEFAULT_FIRST;
  };
  const key = (field: FieldNode) => field.alias?.value ?? field.name.value;

  const summaries = new Map<string, Summary>();
  const summarizing = new Set<string>();
  /** A fragment's summary; a spread inside its own expansion (a cycle) adds nothing. */
  const fragmentSummary = (name: string, top: boolean): Summary | undefined => {
    const fragment = fragments[name];
    const id = `${name}:${top}`;
    if (!fragment || summarizing.has(id)) return undefined;
    let found = summaries.get(id);
    if (!found) {
      summarizing.add(id);
      found = summarize(fragment.selectionSet, top);
      summarizing.delete(id);
      summaries.set(id, found);
    }
    return found;
  };
  const fieldSummaries = new Map<SelectionSetNode, Summary>();
  /** A field's selection set, summarised once (the search for nodesOverAt asks again). */
  const summarizeField = (set: SelectionSetNode): Summary => {
    let found = fieldSummaries.get(set);
    if (!found) fieldSummaries.set(set, (found = summarize(set, false)));
    return found;
  };
  const summarize = (set: SelectionSetNode, top: boolean): Summary => {
    const total = { depth: 0, deepest: [] as string[], aliases: 0, nodes: 0 };
    const add = (part: Summary, perNode: number, level: string | undefined) => {
      total.aliases += part.aliases;
      total.nodes += perNode * part.nodes;
      const depth = part.depth + (level === undefined ? 0 : 1);
      if (depth > total.depth) {
        total.depth = depth;
        total.deepest = level === undefined ? part.deepest : [level, ...part.deepest];
      }
    };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const size = listSize(selection, top);
        if (selection.alias) total.aliases++;
        if (size !== null) total.nodes += size;
        add(selection.selectionSet ? summarizeField(selection.selectionSet) : EMPTY, size ?? 1, key(selection));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        add(summarize(selection.selectionSet, top), 1, undefined);
      } else {
        add(fragmentSummary(selection.name.value, top) ?? EMPTY, 1, undefined);
      }
    }
    return total;
  };

  /** The path of the field at which the running count first goes over maxNodes, in document order. */
  const overAt = (
    set: SelectionSetNode,
    top: boolean,
    path: string[],
    perNode: number,
    before: number,
  ): string | undefined => {
    let count = before;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const here = [...path, key(selection)];
        const size = listSize(selection, top);
        const inner = size === null ? perNode : perNode * size;
        if (size !== null) count += inner;
        if (count > maxNodes) return here.join('.');
        if (!selection.selectionSet) continue;
        const below = inner * summarizeField(selection.selectionSet).nodes;
        if (count + below > maxNodes) return overAt(selection.selectionSet, false, here, inner, count);
        count += below;
      } else {
        const inner =
          selection.kind === Kind.INLINE_FRAGMENT
            ? { set: selection.selectionSet, summary: summarize(selection.selectionSet, top) }
            : {
                set: fragments[selection.name.value]?.selectionSet,
                summary: fragmentSummary(selection.name.value, top),
              };
        if (!inner.set || !inner.summary) continue;
        const below = perNode * inner.summary.nodes;
        if (count + below > maxNodes) return overAt(inner.set, top, path, perNode, count);
        count += below;
      }
    }
    return undefined;
  };

  const whole = summarize(operation.selectionSet, true);
  const nodesOverAt = whole.nodes > maxNodes ? overAt(operation.selectionSet, true, [], 1, 0) : undefined;
  return {
    nesting: whole.depth,
    aliases: whole.aliases,
    nodes: whole.nodes,
    deepestAt: whole.deepest.join('.'),
    ...(nodesOverAt ? { nodesOverAt } : {}),
  };
}

export function createLimitsPlugin(
  limits: OperationLimits,
  budget: ReadBudget,
  maxTreeDepth: number,
  rootField?: (name: string) => string,
): ApolloServerPlugin<{ cost?: DynamoCost }> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, request, contextValue }) {
          if (!operation) return;
          // Apollo answers one result per request: a subscription needs a stream (liveTransports.ts).
          if (operation.operation === OperationTypeNode.SUBSCRIPTION) {
            throw badRequest(
              'subscriptions go over WebSocket (graphql-ws) or Server-Sent Events (graphql-sse) at /graphql, ' +
                'not as a plain POST',
            );
          }
          // A query has a runtime budget; a mutation's work is bounded by its own design.
          const cost = contextValue.cost;
          if (cost && operation.operation === OperationTypeNode.QUERY) cost.budget = budget;
          const fragments: Record<string, FragmentDefinitionNode> = {};
          for (const def of document.definitions) {
            if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
          }
          const measure = measureOperation(
            operation,
            fragments,
            request.variables ?? {},
            limits.maxNodes,
            maxTreeDepth,
            rootField,
          );
          // Nesting, aliases and directives were checked while Apollo validated (armorRules.ts).
          const { nodes } = measure;
          if (nodes > limits.maxNodes) {
            throw tooComplex(
              `operation may return up to ${nodes} nodes, over the limit of ${limits.maxNodes} ` +
                `from ${measure.nodesOverAt} on; lower \`first\` there or above it, or nest fewer lists`,
            );
          }
        },
      };
    },
  };
}

/**
 * The refusal of a query text (POST body or GET parameter) with more tokens than the limit,
 * checked before Apollo parses it (HTTP 400 QUERY_TOO_COMPLEX); undefined when it is within the
 * limit. A persisted query sent by hash alone passed this check when it was registered with its
 * text.
 */
export function tokenLimitRefusal(limits: OperationLimits, query: unknown): TreeError<'QUERY_TOO_COMPLEX'> | undefined {
  if (typeof query !== 'string' || countTokens(query, limits.maxTokens) <= limits.maxTokens) return undefined;
  return tooComplex(`the document has more than ${limits.maxTokens} tokens; the limit is ${limits.maxTokens}`);
}
