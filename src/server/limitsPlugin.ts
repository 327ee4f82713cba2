import type { ApolloServerPlugin } from '@apollo/server';
import {
  Kind,
  Lexer,
  OperationTypeNode,
  Source,
  TokenKind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import type { DynamoCost, ReadBudget } from '../dynamodb/costMeter.js';
import { badRequest, tooComplex, type TreeError } from '../errors.js';
import { measureOperation, type MeasureOptions } from './measureOperation.js';

// Measured in measureOperation.ts; still imported from here by armorRules.ts and the tests.
export { measureOperation, type OperationMeasure } from './measureOperation.js';

/**
 * Refuses, before any DynamoDB call, operations longer or larger than the limits
 * (QUERY_TOO_COMPLEX); nesting, aliases and directives are graphql-armor's rules (armorRules.ts).
 * Tokens are counted before the document is parsed, so that a huge
 * document costs no parse (tokenLimitRefusal, checked by every transport's admission: Apollo
 * answers an error thrown by a plugin before parsing as a 500); nodes is an estimate of how
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

/** What the limits plugin enforces once Apollo has resolved an operation. */
export interface LimitsPluginOptions {
  limits: OperationLimits;
  /** A query's runtime budget (a mutation's work is bounded by its own design). */
  budget: ReadBudget;
  /** MAX_TREE_DEPTH: the length of an `ancestors` list. */
  maxTreeDepth: number;
  /** The root field a name stands for (under SCHEMA_PREFIX, `treeRoots` is `roots`). */
  rootField?: (name: string) => string;
}

/**
 * The Apollo plugin of the limits: subscriptions refused (they go over liveTransports.ts), a
 * query's runtime budget set, and the node estimate checked; nesting, aliases and directives were
 * checked while Apollo validated (armorRules.ts).
 */
export function createLimitsPlugin(options: LimitsPluginOptions): ApolloServerPlugin<{ cost?: DynamoCost }> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, request, contextValue }) {
          if (!operation) return;
          refuseSubscription(operation);
          const cost = contextValue.cost;
          if (cost && operation.operation === OperationTypeNode.QUERY) cost.budget = options.budget;
          const refusal = nodeLimitRefusal(operation, fragmentsOf(document), {
            variables: request.variables ?? {},
            maxNodes: options.limits.maxNodes,
            ancestors: options.maxTreeDepth,
            rootField: options.rootField,
          });
          if (refusal) throw refusal;
        },
      };
    },
  };
}

/** Apollo answers one result per request: a subscription needs a stream (liveTransports.ts). */
function refuseSubscription(operation: OperationDefinitionNode): void {
  if (operation.operation !== OperationTypeNode.SUBSCRIPTION) return;
  throw badRequest(
    'subscriptions go over WebSocket (graphql-ws) or Server-Sent Events (graphql-sse) at /graphql, ' +
      'not as a plain POST',
  );
}

/** A document's fragments, by name. */
function fragmentsOf(document: DocumentNode): Record<string, FragmentDefinitionNode> {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const def of document.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
  }
  return fragments;
}

/** The refusal of an operation whose node estimate is over `maxNodes`, naming where; undefined within it. */
function nodeLimitRefusal(
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  options: MeasureOptions & { maxNodes: number },
): TreeError<'QUERY_TOO_COMPLEX'> | undefined {
  const { nodes, nodesOverAt } = measureOperation(operation, fragments, options);
  if (nodes > options.maxNodes) {
    return tooComplex(
      `operation may return up to ${nodes} nodes, over the limit of ${options.maxNodes} ` +
        `from ${nodesOverAt} on; lower \`first\` there or above it, or nest fewer lists`,
    );
  }
  return undefined;
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
