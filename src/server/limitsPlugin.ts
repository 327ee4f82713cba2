import type { ApolloServerPlugin } from '@apollo/server';
import {
  Kind,
  Lexer,
  Source,
  TokenKind,
  valueFromASTUntyped,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { DynamoCost, ReadBudget } from '../dynamodb/costMeter.js';
import { tooComplex, type TreeError } from '../errors.js';

/**
 * Refuses, before any DynamoDB call, operations longer, deeper, wider or larger than the limits
 * (QUERY_TOO_COMPLEX). Tokens are counted before the document is parsed, so that a huge
 * document costs no parse (tokenLimitRefusal, checked by the HTTP handler: Apollo answers an error thrown
 * by a plugin before parsing as a 500); nesting counts nested fields through fragments; aliases count every
 * aliased field in the operation; nodes is an estimate of how many nodes an operation may
 * return: each list field (roots, children, descendants, nodes) multiplies by its `first` (or
 * the number of ids) the count of the list it sits in.
 */
export interface OperationLimits {
  maxTokens: number;
  /** Fields nested in fields (not the tree's depth, nor a descendants window). */
  maxNesting: number;
  maxAliases: number;
  maxNodes: number;
}

/**
 * The static limits. The node estimate lets through the nested `children` three levels deep
 * with default arguments (1,010,100 nodes at most) and refuses four levels, or
 * `children(first: 1000)` twice nested in a third; what a tree really holds is the runtime
 * budget's business (ReadBudget: MAX_OPERATION_REQUESTS, MAX_OPERATION_ITEMS_READ).
 */
export const DEFAULT_LIMITS: OperationLimits = { maxTokens: 5000, maxNesting: 16, maxAliases: 100, maxNodes: 2_000_000 };

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

export interface OperationMeasure {
  nesting: number;
  aliases: number;
  nodes: number;
  /** The response path of the deepest field (the first one found at that depth). */
  deepestAt: string;
  /** The path of the field at which the node estimate first went over `maxNodes`. */
  nodesOverAt?: string;
}

export function measureOperation(
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown> = {},
  maxNodes = Number.POSITIVE_INFINITY,
): OperationMeasure {
  let aliases = 0;
  let nodes = 0;
  let nodesOverAt: string | undefined;
  let deepest = 0;
  let deepestAt = '';
  const listSize = (field: FieldNode, depth: number): number | null => {
    const name = field.name.value;
    // Query.nodes(ids:) and a gateway's _entities(representations:) are lists of the given
    // length; a connection's `nodes` is the page already counted.
    const listArg = depth === 0 ? ({ nodes: 'ids', _entities: 'representations' } as Record<string, string>)[name] : undefined;
    const argName = listArg ?? (LIST_FIELDS.has(name) ? 'first' : null);
    if (argName === null) return null;
    const arg = field.arguments?.find((a) => a.name.value === argName)?.value;
    const value = arg === undefined ? undefined : valueFromASTUntyped(arg, variables);
    if (listArg) return Array.isArray(value) ? value.length : 0;
    return typeof value === 'number' && value > 0 ? value : DEFAULT_FIRST;
  };
  const visit = (set: SelectionSetNode, path: string[], multiplier: number, seen: Set<string>): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.alias) aliases++;
        const here = [...path, selection.alias?.value ?? selection.name.value];
        const size = listSize(selection, path.length);
        const inner = size === null ? multiplier : multiplier * size;
        if (size !== null) nodes += inner;
        if (nodes > maxNodes) nodesOverAt ??= here.join('.');
        if (here.length > deepest) {
          deepest = here.length;
          deepestAt = here.join('.');
        }
        if (selection.selectionSet) visit(selection.selectionSet, here, inner, seen);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet, path, multiplier, seen);
      } else {
        const fragment = fragments[selection.name.value];
        if (fragment && !seen.has(fragment.name.value)) {
          visit(fragment.selectionSet, path, multiplier, new Set([...seen, fragment.name.value]));
        }
      }
    }
  };
  visit(operation.selectionSet, [], 1, new Set());
  return { nesting: deepest, aliases, nodes, deepestAt, ...(nodesOverAt ? { nodesOverAt } : {}) };
}

export function createLimitsPlugin(limits: OperationLimits, budget: ReadBudget): ApolloServerPlugin<{ cost?: DynamoCost }> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, request, contextValue }) {
          if (!operation) return;
          // A query has a runtime budget; a mutation's work is bounded by its own design.
          const cost = contextValue.cost;
          if (cost && operation.operation === 'query') cost.budget = budget;
          const fragments: Record<string, FragmentDefinitionNode> = {};
          for (const def of document.definitions) {
            if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
          }
          const measure = measureOperation(operation, fragments, request.variables ?? {}, limits.maxNodes);
          const { nesting, aliases, nodes } = measure;
          if (nesting > limits.maxNesting) {
            throw tooComplex(
              `operation depth ${nesting} is over the limit of ${limits.maxNesting} (at ${measure.deepestAt}); nest fewer fields`,
            );
          }
          if (aliases > limits.maxAliases) {
            throw tooComplex(`operation uses ${aliases} aliases; the limit is ${limits.maxAliases}: split it into several operations`);
          }
          if (nodes > limits.maxNodes) {
            throw tooComplex(
              `operation may return up to ${nodes} nodes, over the limit of ${limits.maxNodes} from ${measure.nodesOverAt} on; lower \`first\` there or above it, or nest fewer lists`,
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
