import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * Refuses, before any DynamoDB call, operations deeper or wider than the limits
 * (QUERY_TOO_COMPLEX). Depth counts nested fields through fragments; aliases count every
 * aliased field in the operation.
 */
export interface OperationLimits {
  maxDepth: number;
  maxAliases: number;
}

export const DEFAULT_LIMITS: OperationLimits = { maxDepth: 16, maxAliases: 100 };

export function measureOperation(
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
): { depth: number; aliases: number } {
  let aliases = 0;
  const visit = (set: SelectionSetNode, depth: number, seen: Set<string>): number => {
    let deepest = depth;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.alias) aliases++;
        if (selection.selectionSet) deepest = Math.max(deepest, visit(selection.selectionSet, depth + 1, seen));
        else deepest = Math.max(deepest, depth + 1);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, visit(selection.selectionSet, depth, seen));
      } else {
        const fragment = fragments[selection.name.value];
        if (fragment && !seen.has(fragment.name.value)) {
          deepest = Math.max(deepest, visit(fragment.selectionSet, depth, new Set([...seen, fragment.name.value])));
        }
      }
    }
    return deepest;
  };
  const depth = visit(operation.selectionSet, 0, new Set());
  return { depth, aliases };
}

export function createLimitsPlugin(limits: OperationLimits = DEFAULT_LIMITS): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document }) {
          if (!operation) return;
          const fragments: Record<string, FragmentDefinitionNode> = {};
          for (const def of document.definitions) {
            if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
          }
          const { depth, aliases } = measureOperation(operation, fragments);
          const refuse = (message: string) =>
            new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } } });
          if (depth > limits.maxDepth) throw refuse(`operation depth ${depth} is over the limit of ${limits.maxDepth}`);
          if (aliases > limits.maxAliases) throw refuse(`operation uses ${aliases} aliases; the limit is ${limits.maxAliases}`);
        },
      };
    },
  };
}
