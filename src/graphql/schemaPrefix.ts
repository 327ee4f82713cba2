import { MapperKind, mapSchema, renameType } from '@graphql-tools/utils';
import { isIntrospectionType, isScalarType, Kind, parse, type GraphQLNamedType, type GraphQLSchema } from 'graphql';

/**
 * SCHEMA_PREFIX: the schema renamed for a supergraph that holds other `Node`s, `Job`s and `node`
 * fields. Every object, input and enum type gets the prefix (`Node` → `TreeNode`,
 * `NodeConnection` → `TreeNodeConnection`); so does every root field (`node` → `treeNode`,
 * `createNode` → `treeCreateNode`). The root types keep their names (a gateway merges them), and
 * so do the scalars (`DateTime`, `JSONObject`: the same scalars in every subgraph). Fields of
 * the types keep theirs (`children`, `pageInfo`). Resolvers are the same: a prefixed schema is
 * the same schema, renamed.
 */
export interface SchemaNames {
  prefix: string;
  /** The name of one of the schema's types (`Node`) under the prefix. */
  type: (name: string) => string;
  /** The name of a root field (`roots`) under the prefix. */
  rootField: (name: string) => string;
  /** The other way: the root field a name under the prefix stands for (`treeRoots` → `roots`). */
  canonicalRootField: (name: string) => string;
}

const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

export function schemaNames(prefix = ''): SchemaNames {
  const lower = prefix.charAt(0).toLowerCase() + prefix.slice(1);
  return {
    prefix,
    type: (name) => (prefix && !ROOT_TYPES.has(name) ? `${prefix}${name}` : name),
    rootField: (name) => (prefix ? `${lower}${name.charAt(0).toUpperCase()}${name.slice(1)}` : name),
    canonicalRootField: (name) =>
      prefix && name.startsWith(lower) && name.length > lower.length
        ? `${name.charAt(lower.length).toLowerCase()}${name.slice(lower.length + 1)}`
        : name,
  };
}

/** The schema with its types and root fields renamed (see SchemaNames); itself without a prefix. */
export function prefixSchema(schema: GraphQLSchema, names: SchemaNames): GraphQLSchema {
  if (!names.prefix) return schema;
  const renamed = (type: GraphQLNamedType): boolean =>
    !isIntrospectionType(type) && !isScalarType(type) && !ROOT_TYPES.has(type.name);
  return mapSchema(schema, {
    [MapperKind.TYPE]: (type) => (renamed(type) ? renameType(type, names.type(type.name)) : type),
    [MapperKind.ROOT_FIELD]: (config, fieldName) => [names.rootField(fieldName), config],
  });
}

/**
 * An operation's text with its root fields under the prefix (`roots(` → `treeRoots(`), its
 * comments and layout kept: what GraphiQL's example tabs show under SCHEMA_PREFIX.
 */
export function renameRootFields(source: string, names: SchemaNames): string {
  if (!names.prefix) return source;
  const spots = parse(source)
    .definitions.flatMap((definition) =>
      definition.kind === Kind.OPERATION_DEFINITION ? definition.selectionSet.selections : [],
    )
    .flatMap((selection) =>
      selection.kind === Kind.FIELD && !selection.name.value.startsWith('__') && selection.name.loc
        ? [{ start: selection.name.loc.start, end: selection.name.loc.end, name: selection.name.value }]
        : [],
    )
    .sort((a, b) => b.start - a.start);
  let text = source;
  for (const { start, end, name } of spots) text = `${text.slice(0, start)}${names.rootField(name)}${text.slice(end)}`;
  return text;
}
