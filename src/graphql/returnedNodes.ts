import { MapperKind, mapSchema } from '@graphql-tools/utils';
import {
  defaultFieldResolver,
  getNamedType,
  isInterfaceType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import type { Context } from './context.js';

/**
 * The cost report's `itemsReturned`: every field that answers tree nodes (`Node`, or a type
 * implementing it under NODE_TYPES) adds the nodes it answers to the request's count
 * (`Context.returned`), beside `itemsRead`, the items DynamoDB returned: their ratio is the read
 * amplification (a filter that keeps few of the nodes it reads). A node the answer holds twice
 * (`nodes` and `edges { node }`) counts twice. Names before SCHEMA_PREFIX.
 */
export function withReturnedNodes(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (config) => {
      if (!isTreeNode(getNamedType(config.type))) return config;
      const resolve = config.resolve ?? defaultFieldResolver;
      const counted: GraphQLFieldResolver<unknown, Context> = (source, args, context, info) =>
        counting(resolve(source, args, context, info), context);
      return { ...config, resolve: counted };
    },
  });
}

const isTreeNode = (type: GraphQLNamedType): boolean =>
  type.name === 'Node' ||
  (isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node' && isInterfaceType(i)));

/** The answer as it is, its nodes counted once it is there. */
function counting(answer: unknown, context: Context): unknown {
  if (answer instanceof Promise) return answer.then((value: unknown) => counting(value, context));
  if (context.returned) context.returned.nodes += nodesIn(answer);
  return answer;
}

/** The nodes of a field's answer: a list's (nulls aside), or one. */
function nodesIn(answer: unknown): number {
  if (Array.isArray(answer)) return answer.filter((n) => n != null).length;
  return answer == null || answer instanceof Error ? 0 : 1;
}
