import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { createPubSub } from '@graphql-yoga/subscription';
import { buildSchemaSync } from 'type-graphql';
import { fileURLToPath } from 'node:url';
import { loadNodeTypes } from '../nodeTypes/loadNodeTypes.js';
import type { NodeTypes } from '../nodeTypes/nodeTypes.js';
import { withNodeTypes, withoutInternalFields } from './typedSchema.js';
import { withReturnedNodes } from './returnedNodes.js';
import { printTreeSubgraphSchema, toSubgraphSchema, withoutAppliedDirectives } from './federation.js';
import { CopyRestoreResolver } from './copyRestore.resolver.js';
import { HistoryResolver } from './history.resolver.js';
import { MutationResolver } from './mutation.resolver.js';
import { NodeResolver } from './node.resolver.js';
import { QueryResolver } from './query.resolver.js';
import { SubscriptionResolver } from './subscription.resolver.js';
import { SharingResolver } from './sharing.resolver.js';
import { relayNodeIds, relayNodeSchema } from './relayNode.js';
import { prefixSchema, schemaNames, type SchemaNames } from './schemaPrefix.js';

export interface SchemaOptions {
  /** Build an Apollo Federation 2 subgraph schema (Node an entity keyed by id). */
  federation?: boolean;
  /** SCHEMA_PREFIX: the types and root fields renamed (schemaPrefix.ts). */
  names?: SchemaNames;
  /** RELAY_NODE: the tree node implements Relay's `interface Node`, with global ids (relayNode.ts). */
  relayNode?: boolean;
  /** NODE_TYPES: the node types, each an implementation of the node interface (typedSchema.ts). */
  nodeTypes?: NodeTypes;
}

export function buildTreeSchema(options: SchemaOptions = {}): GraphQLSchema {
  const schema = buildSchemaSync({
    resolvers: [
      QueryResolver,
      MutationResolver,
      NodeResolver,
      HistoryResolver,
      CopyRestoreResolver,
      SubscriptionResolver,
      SharingResolver,
    ],
    validate: false,
    // type-graphql wants a pubsub once there is a subscription; treeChanges brings its own
    // stream (live/treeChanges.ts) and publishes nothing here.
    pubSub: createPubSub(),
  });
  // type-graphql describes no root type: GraphiQL's Docs pane would show its generic blurb.
  schema.getQueryType()!.description = 'Reads: nodes by id, the roots of the trees, the jobs.';
  schema.getMutationType()!.description =
    'Writes: each is all or nothing, and every read answers as if every accepted write were complete.';
  schema.getSubscriptionType()!.description =
    'Live changes, over GraphQL over WebSocket (graphql-ws) or Server-Sent Events (graphql-sse) at /graphql.';
  const names = options.names ?? schemaNames();
  const base = withoutInternalFields(schema);
  const named = prefixSchema(withReturnedNodes(withNodeTypes(base, options.nodeTypes, names)), names);
  if (!options.relayNode) return options.federation ? toSubgraphSchema(named, names) : withoutAppliedDirectives(named);
  const relay = relayNodeSchema(named, names, options.federation);
  if (!options.federation) return withoutAppliedDirectives(relay);
  const ids = relayNodeIds(names);
  return toSubgraphSchema(relay, names, (id) => ids.decode(id, 'id', 'null'));
}

/** The example node types (NODE_TYPES=schema/catalog.graphql), whose schema is committed beside the untyped one. */
export const CATALOG_TYPES = fileURLToPath(new URL('../../schema/catalog.graphql', import.meta.url));

/** The SDL committed as schema/catalog.schema.graphql: the schema under the example node types, sorted. */
export function printTypedSchema(nodeTypes: NodeTypes = loadNodeTypes(CATALOG_TYPES)): string {
  return printTreeSchema(buildTreeSchema({ nodeTypes }));
}

/** The SDL committed as schema/schema.graphql: sorted, so that diffs show real changes. */
export function printTreeSchema(schema: GraphQLSchema = buildTreeSchema()): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}

/** The subgraph SDL committed as schema/subgraph.graphql (served with FEDERATION=true). */
export function printSubgraphSdl(subgraph: GraphQLSchema = buildTreeSchema({ federation: true })): string {
  return printTreeSubgraphSchema(subgraph);
}
