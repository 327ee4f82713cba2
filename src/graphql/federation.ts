import { buildSubgraphSchema, printSubgraphSchema } from '@apollo/subgraph';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import {
  GraphQLObjectType,
  isObjectType,
  type GraphQLInterfaceType,
  Kind,
  lexicographicSortSchema,
  parse,
  print,
  printSchema,
  visit,
  type GraphQLSchema,
} from 'graphql';
import { createResolversMap } from 'type-graphql';
import type { TreeNode } from '../storage/treeStore.js';
import { checkId } from '../storage/validation.js';
import type { Context } from './context.js';
import { schemaNames, type SchemaNames } from './schemaPrefix.js';
import { UNTYPED_NODE } from './typedSchema.js';

/** The resolver map buildSubgraphSchema takes (its type is not exported by name). */
type Resolvers = NonNullable<Extract<Parameters<typeof buildSubgraphSchema>[0], { resolvers?: unknown }>['resolvers']>;

/**
 * The raw id of a reference's key (refused when malformed); null for a key that names no tree
 * node (under RELAY_NODE, the global id of another type).
 */
export type ReferenceId = (id: string) => string | null;

/** The federation 2 features the subgraph uses. */
export const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])';

/**
 * Turns the type-graphql schema into an Apollo Federation 2 subgraph, the way type-graphql
 * documents it: the SDL with the directives applied by `@Directive` (here `@key` on Node),
 * linked to the federation spec, given to `buildSubgraphSchema` with type-graphql's resolvers,
 * plus Node's reference resolver. References go through the request's `nodeById` loader, so
 * the `_entities` of one gateway fetch cost one BatchGet wave (up to 100 ids per BatchGet).
 */
export function toSubgraphSchema(
  schema: GraphQLSchema,
  names: SchemaNames = schemaNames(),
  referenceId: ReferenceId = (id) => checkId(id),
): GraphQLSchema {
  const resolvers = createResolversMap(schema) as Resolvers;
  // Node, or under NODE_TYPES each of its implementations (a reference of another type: null).
  const untyped = names.type('Node');
  const entities = isObjectType(schema.getType(untyped))
    ? [untyped]
    : schema.getPossibleTypes(schema.getType(untyped) as GraphQLInterfaceType).map((type) => type.name);
  for (const entity of entities) {
    resolvers[entity] = {
      ...(resolvers[entity] as Record<string, never>),
      __resolveReference: async (reference: { id: string }, { loaders, access }: Context): Promise<TreeNode | null> => {
        const id = referenceId(reference.id);
        const node = id === null ? null : await access.visible(await loaders.nodeById.load(id));
        return node && (entity === untyped || names.type(node.type ?? UNTYPED_NODE) === entity) ? node : null;
      },
    };
  }
  return buildSubgraphSchema({
    typeDefs: parse(`${FEDERATION_LINK}\n\n${printWithAppliedDirectives(schema)}`),
    resolvers,
  });
}

/**
 * The schema without the federation directives that type-graphql applies to the types' AST nodes
 * (`@key`, `@shareable`): outside a subgraph they are declared nowhere, and a tool that prints the
 * AST (graphql-tools' mergeSchemas, beside an application's own schema) would refuse them.
 */
export function withoutAppliedDirectives(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.OBJECT_TYPE]: (type) => {
      const { astNode } = type;
      if (!astNode?.directives?.length) return type;
      return new GraphQLObjectType({ ...type.toConfig(), astNode: { ...astNode, directives: [] } });
    },
  });
}

/** The subgraph SDL (what `_service { sdl }` answers and the gateway composes), sorted. */
export function printTreeSubgraphSchema(subgraph: GraphQLSchema): string {
  return `${printSubgraphSchema(subgraph).trimEnd()}\n`;
}

/**
 * graphql's printSchema leaves out applied directives; type-graphql keeps those of `@Directive`
 * in the AST nodes of the types and fields, from where they are put back into the SDL.
 */
function printWithAppliedDirectives(schema: GraphQLSchema): string {
  const sorted = lexicographicSortSchema(schema);
  const document = visit(parse(printSchema(sorted)), {
    [Kind.OBJECT_TYPE_DEFINITION](node) {
      const type = sorted.getType(node.name.value);
      if (!type || !('getFields' in type)) return undefined;
      const fields = type.getFields();
      return {
        ...node,
        directives: [...(node.directives ?? []), ...(type.astNode?.directives ?? [])],
        fields: node.fields?.map((field) => {
          const applied = fields[field.name.value]?.astNode?.directives ?? [];
          return applied.length === 0 ? field : { ...field, directives: [...(field.directives ?? []), ...applied] };
        }),
      };
    },
  });
  return print(document);
}
