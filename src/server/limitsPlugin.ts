import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  valueFromASTUntyped,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * Refuses, before any DynamoDB call, operations deeper, wider or larger than the limits
 * (QUERY_TOO_COMPLEX). Depth counts nested fields through fragments; aliases count every
 * aliased field in the operation; nodes is GitHub's estimate of how many nodes an operation
 * may return: each list field (roots, children, descendants, nodes) multiplies by its `first`
 * (or the number of ids) the count of the list it sits in.
 */
export interface OperationLimits {
  maxDepth: number;
  maxAliases: number;
  maxNodes: number;
}

export const DEFAULT_LIMITS: OperationLimits = { maxDepth: 16, maxAliases: 100, maxNodes: 500_000 };

const LIST_FIELDS = new Set(['roots', 'children', 'descendants']);
const DEFAULT_FIRST = 100;

export function measureOperation(
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown> = {},
): { depth: number; aliases: number; nodes: number } {
  let aliases = 0;
  let nodes = 0;
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
  const visit = (set: SelectionSetNode, depth: number, multiplier: number, seen: Set<string>): number => {
    let deepest = depth;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.alias) aliases++;
        const size = listSize(selection, depth);
        const inner = size === null ? multiplier : multiplier * size;
        if (size !== null) nodes += inner;
        if (selection.selectionSet) deepest = Math.max(deepest, visit(selection.selectionSet, depth + 1, inner, seen));
        else deepest = Math.max(deepest, depth + 1);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, visit(selection.selectionSet, depth, multiplier, seen));
      } else {
        const fragment = fragments[selection.name.value];
        if (fragment && !seen.has(fragment.name.value)) {
          deepest = Math.max(deepest, visit(fragment.selectionSet, depth, multiplier, new Set([...seen, fragment.name.value])));
        }
      }
    }
    return deepest;
  };
  const depth = visit(operation.selectionSet, 0, 1, new Set());
  return { depth, aliases, nodes };
}

export function createLimitsPlugin(limits: OperationLimits = DEFAULT_LIMITS): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, request }) {
          if (!operation) return;
          const fragments: Record<string, FragmentDefinitionNode> = {};
          for (const def of document.definitions) {
            if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
          }
          const { depth, aliases, nodes } = measureOperation(operation, fragments, request.variables ?? {});
          const refuse = (message: string) =>
            new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } } });
          if (depth > limits.maxDepth) throw refuse(`operation depth ${depth} is over the limit of ${limits.maxDepth}`);
          if (aliases > limits.maxAliases) throw refuse(`operation uses ${aliases} aliases; the limit is ${limits.maxAliases}`);
          if (nodes > limits.maxNodes) {
            throw refuse(`operation may return up to ${nodes} nodes; the limit is ${limits.maxNodes} (lower \`first\`)`);
          }
        },
      };
    },
  };
}
