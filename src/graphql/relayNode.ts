import { MapperKind, mapSchema } from '@graphql-tools/utils';
import {
  GraphQLID,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  isInterfaceType,
  type GraphQLFieldResolver,
  type GraphQLTypeResolver,
} from 'graphql';
import { badInput } from '../errors.js';
import { grouped, MAX_PAGE_SIZE } from '../storage/validation.js';
import { globalIds, type GlobalIds } from './globalId.js';
import { globalNodeIds, type NodeIdPositions } from './globalNodeIds.js';
import type { SchemaNames } from './schemaPrefix.js';

/**
 * RELAY_NODE: Relay's global object identification. The tree node type (`TreeNode`: SCHEMA_PREFIX
 * is required, since `Node` is the interface's name) implements `interface Node { id: ID! }`
 * (under NODE_TYPES, the `TreeNode` interface and each type implementing it), and
 * every node id the schema shows or takes is global (globalId.ts), through one wrapper of the
 * resolvers (globalNodeIds.ts). Query gains Relay's unprefixed `node(id:)` and `nodes(ids:)`,
 * except in a federation subgraph: there a supergraph's `node` belongs to its Relay subgraph,
 * which answers `{ __typename: "TreeNode", id }` for the ids of tree nodes, and the gateway
 * fetches the rest from Canopy through the entity's key (federation.ts decodes it).
 */
export function relayNodeSchema(schema: GraphQLSchema, names: SchemaNames, federation = false): GraphQLSchema {
  const nodeType = names.type('Node');
  if (nodeType === 'Node') throw new Error('RELAY_NODE needs SCHEMA_PREFIX: Node is the name of the interface');
  const ids = globalIds(nodeType);
  // Under NODE_TYPES the tree node type is an interface: Relay's names the node's own type.
  const own = schema.getType(nodeType);
  const node = nodeInterface(isInterfaceType(own) && own.resolveType ? own.resolveType : () => nodeType);
  const config = schema.toConfig();
  const withInterface = new GraphQLSchema({ ...config, types: [...config.types, node] });
  const wrap = globalNodeIds(withInterface, ids, nodeIdPositions(names));
  const isTreeNode = (type: GraphQLObjectType | GraphQLInterfaceType) =>
    type.name === nodeType || type.getInterfaces().some((i) => i.name === nodeType);
  return mapSchema(withInterface, {
    [MapperKind.OBJECT_TYPE]: (type) =>
      isTreeNode(type)
        ? new GraphQLObjectType({ ...type.toConfig(), interfaces: [...type.getInterfaces(), node] })
        : undefined,
    [MapperKind.INTERFACE_TYPE]: (type) =>
      type.name === nodeType
        ? new GraphQLInterfaceType({ ...type.toConfig(), interfaces: [...type.getInterfaces(), node] })
        : undefined,
    [MapperKind.QUERY]: (query) => (federation ? undefined : withRelayRootFields(query, names, node)),
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => wrap(field, fieldName, typeName),
  });
}

/** The global ids of the tree node type of a schema under these names (`TreeNode`). */
export const relayNodeIds = (names: SchemaNames): GlobalIds => globalIds(names.type('Node'));

/**
 * The IDs that name no tree node (a job's, a change's), those read leniently (Relay's `node`,
 * `nodes`), and those where the empty string is a root (`expectedParentId`): every other ID is a
 * node's. A new ID field or argument that names something else goes here
 * (test/offline/relayNode.test.ts lists every ID of the schema).
 */
export function nodeIdPositions(names: SchemaNames): NodeIdPositions {
  return {
    raw: new Set([
      `${names.type('Job')}.id`,
      `Query.${names.rootField('job')}(id)`,
      `${names.type('TreeChange')}.id`,
      `Mutation.${names.rootField('undo')}(changeId)`,
    ]),
    lenient: new Set(['Query.node(id)', 'Query.nodes(ids)']),
    blankIsRoot: new Set(
      ['reparent', 'deleteNode'].map((field) => `Mutation.${names.rootField(field)}(expectedParentId)`),
    ),
  };
}

function nodeInterface(resolveType: GraphQLTypeResolver<unknown, unknown>): GraphQLInterfaceType {
  return new GraphQLInterfaceType({
    name: 'Node',
    description:
      "Relay's global object identification: an object with a global id, which `node(id:)` refetches " +
      'wherever the object is served.',
    fields: {
      id: { type: new GraphQLNonNull(GraphQLID), description: 'The global id: opaque, and unique across types.' },
    },
    resolveType,
  });
}

/**
 * Query with Relay's `node` and `nodes` beside the tree's own lookups, which they call with the
 * raw ids (the wrapper decoded them; an id of another type arrives as null).
 */
function withRelayRootFields(query: GraphQLObjectType, names: SchemaNames, node: GraphQLInterfaceType) {
  const config = query.toConfig();
  type Resolver = GraphQLFieldResolver<unknown, unknown>;
  const byId = config.fields[names.rootField('node')]?.resolve as Resolver;
  const byIds = config.fields[names.rootField('nodes')]?.resolve as Resolver;
  const globalIdsArg = new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLID)));
  const fields: typeof config.fields = {
    ...config.fields,
    node: {
      type: node,
      description: "Relay's refetch: the object with this global id; null when there is none here.",
      args: { id: { type: new GraphQLNonNull(GraphQLID), description: 'A global id.' } },
      resolve: (source, args: { id: string | null }, context, info) =>
        args.id === null ? null : byId(source, { id: args.id }, context, info),
    },
    nodes: {
      type: new GraphQLNonNull(new GraphQLList(node)),
      description: "Relay's refetch of several objects: same order as ids, null where there is none here.",
      args: { ids: { type: globalIdsArg, description: `Global ids, up to ${grouped(MAX_PAGE_SIZE)}.` } },
      resolve: async (source, args: { ids: Array<string | null> }, context, info) => {
        if (args.ids.length > MAX_PAGE_SIZE)
          throw badInput(`ids may hold at most ${MAX_PAGE_SIZE} ids, got ${args.ids.length}`, { field: 'ids' });
        const held = args.ids.filter((id): id is string => id !== null);
        const found = (await byIds(source, { ids: held }, context, info)) as unknown[];
        let next = 0;
        return args.ids.map((id) => (id === null ? null : found[next++]));
      },
    },
  };
  return new GraphQLObjectType({ ...config, fields });
}
