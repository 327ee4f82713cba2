import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { createPubSub } from '@graphql-yoga/subscription';
import { buildSchemaSync } from 'type-graphql';
import { printTreeSubgraphSchema, toSubgraphSchema, withoutAppliedDirectives } from './federation.js';
import { CopyRestoreResolver } from './copyRestore.resolver.js';
import { HistoryResolver } from './history.resolver.js';
import { MutationResolver } from './mutation.resolver.js';
import { NodeResolver } from './node.resolver.js';
import { QueryResolver } from './query.resolver.js';
import { SubscriptionResolver } from './subscription.resolver.js';
import { relayNodeIds, relayNodeSchema } from './relayNode.js';
import { prefixSchema, schemaNames, type SchemaNames } from './schemaPrefix.js';

export interface SchemaOptions {
  /** Build an Apollo Federation 2 subgraph schema (Node an entity keyed by id). */
  federation?: boolean;
  /** SCHEMA_PREFIX: the types and root fields renamed (schemaPrefix.ts). */
  names?: SchemaNames;
  /** RELAY_NODE: the tree node implements Relay's `interface Node`, with global ids (relayNode.ts). */
  relayNode?: boolean;
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
  const named = prefixSchema(schema, names);
  if (!options.relayNode) return options.federation ? toSubgraphSchema(named, names) : withoutAppliedDirectives(named);
  const relay = relayNodeSchema(named, names, options.federation);
  if (!options.federation) return withoutAppliedDirectives(relay);
  const ids = relayNodeIds(names);
  return toSubgraphSchema(relay, names, (id) => ids.decode(id, 'id', 'null'));
}

/** The SDL committed as schema/schema.graphql: sorted, so that diffs show real changes. */
export function printTreeSchema(schema: GraphQLSchema = buildTreeSchema()): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}

/** The subgraph SDL committed as schema/subgraph.graphql (served with FEDERATION=true). */
export function printSubgraphSdl(subgraph: GraphQLSchema = buildTreeSchema({ federation: true })): string {
  return printTreeSubgraphSchema(subgraph);
}
