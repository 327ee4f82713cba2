import { MapperKind, mapSchema, rewireTypes } from '@graphql-tools/utils';
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldResolver,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLScalarType,
} from 'graphql';
import { badInput } from '../errors.js';
import { comparisonsOf, nodeTest, type NodeFilter } from '../nodeTypes/nodeFilter.js';
import {
  FIELD_SCALARS,
  type FieldScalar,
  type FieldType,
  type NodeField,
  type NodeType,
  type NodeTypes,
} from '../nodeTypes/nodeTypes.js';
import type { DescendantsOrder, JsonObject, TreeNode } from '../storage/treeStore.js';
import { toConnection } from './connection.type.js';
import type { Context } from './context.js';
import { filteredPage } from './filteredPage.js';
import { listLeftOut } from './lookahead.js';
import type { PageArgs as PageArgsInput } from './node.args.js';
import { pathQueries } from './pathQueries.js';
import { relayPage } from './relayPage.js';
import type { SchemaNames } from './schemaPrefix.js';

/** The type of the nodes without a node type, under NODE_TYPES. */
export const UNTYPED_NODE = 'UntypedNode';

/** The arguments and input fields that carry a node type to the store: set from a typed input, never sent. */
export function withoutInternalFields(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.INPUT_OBJECT_FIELD]: (config, fieldName, typeName) =>
      fieldName === 'type' && (typeName === 'CreateNodeInput' || typeName === 'NewNodeInput') ? null : config,
    [MapperKind.MUTATION_ROOT_FIELD]: (config, fieldName) => {
      if (fieldName !== 'updateNode' || !config.args) return config;
      const { type: _internal, ...args } = config.args;
      return { ...config, args };
    },
  });
}

/**
 * The schema under NODE_TYPES (docs/contract.md, "Typed nodes"), its names before SCHEMA_PREFIX:
 * `Node` becomes an interface, implemented by each declared type (its fields, then the type's own,
 * read from the node's data) and by `UntypedNode`; `__typename` is the node's type. Each type has
 * a create input (`CategoryInput`: required fields without a default are non-null, defaults
 * declared) and a patch (`CategoryPatch`: every field optional, a null removes it), given as
 * `createNode(input: { category: {...} })`, `createNodes`' nodes likewise, and
 * `updateNode(category: {...})`; `nodeByPath` and `pathLookup` find a node by its path keys.
 */
export function withNodeTypes(
  schema: GraphQLSchema,
  nodeTypes: NodeTypes | undefined,
  names: SchemaNames,
): GraphQLSchema {
  const typeMap: Record<string, GraphQLNamedType> = { ...schema.getTypeMap() };
  for (const type of filterInputs(typeMap, nodeTypes)) typeMap[type.name] = type;
  typeMap.Node = withDescendantsFilter(typeMap, nodeTypes);
  if (nodeTypes) {
    for (const type of typedTypes(typeMap, nodeTypes, names)) typeMap[type.name] = type;
    withTypedInputs(typeMap, nodeTypes);
    const paths = pathQueries(typeMap, nodeTypes);
    const query = (typeMap.Query as GraphQLObjectType).toConfig();
    typeMap.Query = new GraphQLObjectType({ ...query, fields: { ...query.fields, ...paths.fields } });
    typeMap.PathLookup = paths.lookupType;
  }
  const rewired = rewireTypes(typeMap, schema.getDirectives());
  const config = schema.toConfig();
  const rebuilt = new GraphQLSchema({
    ...config,
    query: rewired.typeMap.Query as GraphQLObjectType,
    mutation: rewired.typeMap.Mutation as GraphQLObjectType,
    subscription: rewired.typeMap.Subscription as GraphQLObjectType,
    types: Object.values(rewired.typeMap),
    directives: rewired.directives,
  });
  return nodeTypes ? wrapTypedMutations(rebuilt, nodeTypes) : rebuilt;
}

/** The interface, its implementations, the enums and the inputs, referring to the schema's types (rewired by name). */
function typedTypes(
  typeMap: Record<string, GraphQLNamedType>,
  nodeTypes: NodeTypes,
  names: SchemaNames,
): GraphQLNamedType[] {
  const nodeConfig = (typeMap.Node as GraphQLObjectType).toConfig();
  const enums = [...nodeTypes.enums.values()].map(
    (e) =>
      new GraphQLEnumType({
        name: e.name,
        description: e.description,
        values: Object.fromEntries(e.values.map((v) => [v, { value: v }])),
      }),
  );
  const scalars: Record<string, GraphQLNamedType> = {
    String: GraphQLString,
    Int: GraphQLInt,
    Float: GraphQLFloat,
    Boolean: GraphQLBoolean,
    DateTime: typeMap.DateTime as GraphQLScalarType,
    ...Object.fromEntries(enums.map((e) => [e.name, e])),
  };
  const iface = new GraphQLInterfaceType({
    name: 'Node',
    description: nodeConfig.description,
    fields: Object.fromEntries(
      Object.entries(nodeConfig.fields).map(([name, { resolve: _r, subscribe: _s, ...field }]) => [name, field]),
    ),
    resolveType: (value: TreeNode) => names.type(value.type ?? UNTYPED_NODE),
  });
  // Each implementation an entity as Node is (its `@key`, which only a subgraph's SDL prints).
  const astNode = nodeConfig.astNode;
  const implementation = (name: string, description: string | undefined | null, own = {}) =>
    new GraphQLObjectType({
      ...nodeConfig,
      name,
      description,
      astNode: astNode && { ...astNode, name: { ...astNode.name, value: name } },
      interfaces: [iface],
      fields: { ...nodeConfig.fields, ...own },
    });
  return [
    iface,
    implementation(UNTYPED_NODE, 'A node without a node type (created without one): its data is any JSON object.'),
    ...[...nodeTypes.types.values()].map((type) =>
      implementation(type.name, type.description ?? nodeConfig.description, typedFields(type, scalars)),
    ),
    ...enums,
    ...[...nodeTypes.types.values()].flatMap((type) => typedInputs(type, scalars)),
  ];
}

/** A type's own fields, read from the node's data. */
function typedFields(type: NodeType, scalars: Record<string, GraphQLNamedType>) {
  return Object.fromEntries(
    type.fields.map((field): [string, GraphQLFieldConfig<TreeNode, unknown>] => [
      field.name,
      {
        type: outputType(field.type, scalars) as never,
        description: field.description,
        resolve: (node: TreeNode) => node.data?.[field.name] ?? null,
      },
    ]),
  );
}

function outputType(type: FieldType, scalars: Record<string, GraphQLNamedType>, required = type.required) {
  const named = scalars[type.named]!;
  let t: GraphQLNamedType | GraphQLList<never> | GraphQLNonNull<never> = named;
  if (type.list) {
    const item = type.itemRequired ? new GraphQLNonNull(named as never) : named;
    t = new GraphQLList(item as never);
  }
  return required ? new GraphQLNonNull(t as never) : t;
}

/** `CategoryInput` (a create's: required fields without a default non-null, defaults declared) and `CategoryPatch`. */
function typedInputs(type: NodeType, scalars: Record<string, GraphQLNamedType>): GraphQLInputObjectType[] {
  const input = (field: NodeField, patch: boolean) => ({
    type: outputType(
      field.type,
      scalars,
      !patch && field.type.required && field.default === undefined,
    ) as GraphQLInputType,
    description: field.description,
    ...(!patch && field.default !== undefined ? { defaultValue: field.default } : {}),
  });
  return [
    new GraphQLInputObjectType({
      name: `${type.name}Input`,
      description: `The fields of a new ${type.name}.`,
      fields: Object.fromEntries(type.fields.map((f) => [f.name, input(f, false)])),
    }),
    new GraphQLInputObjectType({
      name: `${type.name}Patch`,
      description: `The fields of a ${type.name} to change: those named change (a null removes one), the others stay.`,
      fields: Object.fromEntries(type.fields.map((f) => [f.name, input(f, true)])),
    }),
  ];
}

/** The input key of a type's fields: `category` for Category. */
export const typedKey = (type: string): string => type.charAt(0).toLowerCase() + type.slice(1);

/** CreateNodeInput and NewNodeInput gain a field per type, updateNode an argument per type. */
function withTypedInputs(typeMap: Record<string, GraphQLNamedType>, nodeTypes: NodeTypes): void {
  const types = [...nodeTypes.types.values()];
  for (const name of ['CreateNodeInput', 'NewNodeInput']) {
    const config = (typeMap[name] as GraphQLInputObjectType).toConfig();
    const typed = Object.fromEntries(
      types.map((t) => [
        typedKey(t.name),
        {
          type: typeMap[`${t.name}Input`] as GraphQLInputType,
          description: `A ${t.name}: its fields (then data must be absent). Without one, the node is untyped.`,
        },
      ]),
    );
    typeMap[name] = new GraphQLInputObjectType({ ...config, fields: { ...config.fields, ...typed } });
  }
  const mutation = (typeMap.Mutation as GraphQLObjectType).toConfig();
  const update = mutation.fields.updateNode!;
  const patches = Object.fromEntries(
    types.map((t) => [
      typedKey(t.name),
      { type: typeMap[`${t.name}Patch`] as GraphQLInputType, description: `For a ${t.name}: the fields to change.` },
    ]),
  );
  typeMap.Mutation = new GraphQLObjectType({
    ...mutation,
    fields: { ...mutation.fields, updateNode: { ...update, args: { ...update.args, ...patches } } },
  });
}

/** The typed inputs, folded into what the store takes: a node's `type` and `data`, a patch's `type` and `dataPatch`. */
function wrapTypedMutations(schema: GraphQLSchema, nodeTypes: NodeTypes): GraphQLSchema {
  const keys = new Map([...nodeTypes.types.keys()].map((name) => [typedKey(name), name]));
  const fold = (input: JsonObject, data: 'data' | 'dataPatch'): JsonObject => {
    const given = [...keys].filter(([key]) => input[key] != null);
    if (given.length === 0) return input;
    const [[key, type]] = given as [[string, string]];
    if (given.length > 1)
      throw badInput(`give the fields of one node type, not ${given.map(([k]) => k).join(' and ')}`, { field: key });
    if (input[data] != null) throw badInput(`give ${key} or ${data}, not both`, { field: key });
    const folded: JsonObject = { ...input, type, [data]: input[key] };
    for (const k of keys.keys()) delete folded[k];
    return folded;
  };
  const mutation = schema.getMutationType()!;
  const wrap = (name: string, change: (args: JsonObject) => JsonObject) => {
    const field = mutation.getFields()[name]!;
    const resolve = field.resolve as GraphQLFieldResolver<unknown, unknown>;
    field.resolve = (source, args: JsonObject, context, info) => resolve(source, change(args), context, info);
  };
  wrap('createNode', (args) => ({ ...args, input: fold(args.input as JsonObject, 'data') }));
  wrap('createNodes', (args) => {
    const input = args.input as { nodes: JsonObject[] };
    return { ...args, input: { ...input, nodes: input.nodes.map((n) => fold(n, 'data')) } };
  });
  wrap('updateNode', (args) => fold(args, 'dataPatch'));
  return schema;
}

const OPERATORS: Record<string, string> = {
  eq: 'equal to it',
  ne: 'not equal to it',
  in: 'one of them',
  prefix: 'starting with it',
  gt: 'greater than it',
  gte: 'at least it',
  lt: 'less than it',
  lte: 'at most it',
};

/**
 * NodeFilter and the comparisons it takes (`StringFilter`, `FloatFilter`, `ProductStatusFilter`,
 * ...): the node's name, and with node types its type and each typed field by its name. Types of
 * the file are named, to be rewired to the schema's by name.
 */
function filterInputs(
  typeMap: Record<string, GraphQLNamedType>,
  nodeTypes: NodeTypes | undefined,
): GraphQLInputObjectType[] {
  const kinds = new Map<string, GraphQLInputObjectType>();
  const comparison = (named: string): GraphQLInputObjectType => {
    const known = kinds.get(named);
    if (known) return known;
    const scalar = { String: GraphQLString, Int: GraphQLInt, Float: GraphQLFloat, Boolean: GraphQLBoolean }[named];
    const type = (scalar ??
      (named === 'DateTime' ? typeMap.DateTime : new GraphQLEnumType({ name: named, values: {} }))) as GraphQLInputType;
    const kind = (FIELD_SCALARS as readonly string[]).includes(named) ? (named as FieldScalar) : 'enum';
    const input = new GraphQLInputObjectType({
      name: `${named}Filter`,
      description: `Comparisons of a ${named} value, all of which hold (on a list, for one of its items).`,
      fields: Object.fromEntries(
        comparisonsOf(kind).map((op) => [
          op,
          {
            type: op === 'in' ? new GraphQLList(new GraphQLNonNull(type)) : op === 'prefix' ? GraphQLString : type,
            description: `The value is ${OPERATORS[op]}.`,
          },
        ]),
      ),
    });
    kinds.set(named, input);
    return input;
  };
  const typed = new Map<string, string>();
  for (const type of nodeTypes?.types.values() ?? []) for (const f of type.fields) typed.set(f.name, f.type.named);
  const filter: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: 'NodeFilter',
    description:
      'Which nodes pass: every condition given holds (and, or and not combine filters). A node without a ' +
      'field fails a comparison of it.',
    fields: () => ({
      name: { type: comparison('String'), description: 'Its name.' },
      ...(nodeTypes
        ? {
            type: {
              type: new GraphQLList(new GraphQLNonNull(GraphQLString)),
              description: 'Its node type is one of these.',
            },
          }
        : {}),
      ...Object.fromEntries([...typed].map(([field, named]) => [field, { type: comparison(named) }])),
      and: { type: new GraphQLList(new GraphQLNonNull(filter)), description: 'Every one of these passes.' },
      or: { type: new GraphQLList(new GraphQLNonNull(filter)), description: 'One of these passes.' },
      not: { type: filter, description: 'This one does not pass.' },
    }),
  });
  // The thunk above runs when the schema is built: the comparisons exist by then.
  comparison('String');
  for (const named of typed.values()) comparison(named);
  return [filter, ...kinds.values()];
}

/** Node.descendants with its `filter`: the window's nodes that pass, read as filteredPage says. */
function withDescendantsFilter(
  typeMap: Record<string, GraphQLNamedType>,
  nodeTypes: NodeTypes | undefined,
): GraphQLObjectType {
  const config = (typeMap.Node as GraphQLObjectType).toConfig();
  const descendants = config.fields.descendants!;
  const unfiltered = descendants.resolve as GraphQLFieldResolver<TreeNode, Context>;
  const resolve: GraphQLFieldResolver<TreeNode, Context, JsonObject> = async (node, args, ctx, info) => {
    if (args.filter == null) return unfiltered(node, args, ctx, info);
    const test = nodeTest(args.filter as NodeFilter, nodeTypes);
    const read = relayPage(args as unknown as PageArgsInput, info);
    // The filter reads the name and the data of every node of the window.
    const leftOut = listLeftOut(info).filter((field) => field !== 'name' && field !== 'data');
    const window = {
      minDepth: (args.minDepth as number | null) ?? 1,
      maxDepth: (args.maxDepth as number | null) ?? null,
    };
    const order = (args.order as DescendantsOrder | null) ?? 'BY_DEPTH';
    const page = await filteredPage(
      (p) => ctx.loaders.descendants.load({ node, window, page: p, order, leftOut }),
      read,
      test,
    );
    return toConnection(page, read);
  };
  const filter = {
    type: typeMap.NodeFilter as GraphQLInputType,
    description:
      'Only the nodes of the window that pass (paged as the window): the window is read from the cursor ' +
      'until the page is full.',
  };
  return new GraphQLObjectType({
    ...config,
    fields: { ...config.fields, descendants: { ...descendants, args: { ...descendants.args, filter }, resolve } },
  });
}
