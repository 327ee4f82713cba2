import {
  GraphQLBoolean,
  GraphQLID,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
  type GraphQLNamedType,
  type GraphQLOutputType,
} from 'graphql';
import type { NodeTypes } from '../nodeTypes/nodeTypes.js';
import { TypedData } from '../nodeTypes/typedData.js';
import type { PathMatch, TreeNode } from '../storage/treeStore.js';
import type { Context } from './context.js';

/** A path's answer with what it says of the path: the node, whether the path is an old one, the current one. */
interface Lookup {
  node: TreeNode;
  match: PathMatch;
  rootId: string;
}

const PATH_ARGS = {
  rootId: { type: new GraphQLNonNull(GraphQLID), description: 'The node the path starts below.' },
  path: {
    type: new GraphQLNonNull(GraphQLString),
    description: 'Path key values joined by "/", one per level below rootId ("electronics/computers/laptops").',
  },
};

/** The node `path` names below `rootId`, as `node(id)` reads it (null: none, or one the caller may not read). */
async function lookup(rootId: string, path: string, context: Context): Promise<Lookup | null> {
  const { access, loaders } = context;
  // A path below a node the caller may not read names nothing for it (its steps there included).
  if (access.grants.all === null && !(await access.visible(await loaders.nodeById.load(rootId)))) return null;
  const match = await context.store.resolvePath(rootId, path);
  if (match?.node) context.loaders.prime([match.node]);
  const node = match && (await context.access.visible(await context.loaders.nodeById.load(match.id)));
  return node && match ? { node, match, rootId } : null;
}

/**
 * The Query fields of paths under NODE_TYPES (docs/contract.md, "Paths"): `nodeByPath`, the node
 * a path names, old paths included; `pathLookup`, the same with whether the path is an old one
 * (the node moved, or a path key on it was renamed) and the node's path now, for a redirect.
 */
export function pathQueries(typeMap: Record<string, GraphQLNamedType>, nodeTypes: NodeTypes) {
  const node = typeMap.Node as GraphQLOutputType;
  const typed = new TypedData(nodeTypes);
  const lookupType = new GraphQLObjectType<Lookup, Context>({
    name: 'PathLookup',
    description: 'What a path names: the node, and whether the path is one it had before a move or a rename.',
    fields: {
      node: { type: new GraphQLNonNull(node), resolve: (found) => found.node },
      moved: {
        type: new GraphQLNonNull(GraphQLBoolean),
        description: 'Whether a step of the path is a path key the node (or an ancestor) left: the path is an old one.',
        resolve: (found) => found.match.moved,
      },
      path: {
        type: GraphQLString,
        description: "The node's path below rootId now; null when it is no longer below rootId.",
        resolve: (found, _args, context) => currentPath(found, context, typed),
      },
    },
  });
  const fields: GraphQLFieldConfigMap<unknown, Context> = {
    nodeByPath: {
      type: node,
      args: PATH_ARGS,
      description:
        'The node a path of path keys names below rootId, or null. ' +
        'An old path (before a move or a rename) still finds it.',
      resolve: async (_root, args: { rootId: string; path: string }, context) =>
        (await lookup(args.rootId, args.path, context))?.node ?? null,
    },
    pathLookup: {
      type: lookupType,
      args: PATH_ARGS,
      description: 'nodeByPath, with whether the path is an old one and the path now.',
      resolve: (_root, args: { rootId: string; path: string }, context) => lookup(args.rootId, args.path, context),
    },
  };
  return { lookupType, fields };
}

/** The node's path key values below `rootId`, joined by "/", from its ancestors; null when a step has none. */
async function currentPath(found: Lookup, context: Context, typed: TypedData): Promise<string | null> {
  const chain = [...(await context.loaders.ancestors.load(found.node)), found.node];
  const from = chain.findIndex((n) => n.id === found.rootId);
  if (from < 0) return null;
  const steps = chain.slice(from + 1).map((n) => typed.pathKeyOf(n));
  return steps.every((step) => step !== null) ? steps.join('/') : null;
}
