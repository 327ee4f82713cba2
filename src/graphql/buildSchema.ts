import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import { MutationResolver } from './mutation.resolver.js';
import { NodeResolver } from './node.resolver.js';
import { QueryResolver } from './query.resolver.js';

export interface SchemaOptions {
  /** Build an Apollo Federation 2 subgraph schema. */
  federation?: boolean;
}

export function buildTreeSchema(_options: SchemaOptions = {}): GraphQLSchema {
  return buildSchemaSync({
    resolvers: [QueryResolver, MutationResolver, NodeResolver],
    validate: false,
  });
}

/** The SDL committed as schema/schema.graphql: sorted, so that diffs show real changes. */
export function printTreeSchema(schema: GraphQLSchema = buildTreeSchema()): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
