import type { GraphQLSchema } from 'graphql';
import type { Config } from '../config.js';
import { buildTreeSchema } from '../graphql/buildSchema.js';
import { schemaNames, type SchemaNames } from '../graphql/schemaPrefix.js';

/** The schema the configuration describes (SCHEMA_PREFIX, FEDERATION, RELAY_NODE, NODE_TYPES), and its names. */
export function configuredSchema(config: Pick<Config, 'schemaPrefix' | 'federation' | 'relayNode' | 'nodeTypes'>): {
  schema: GraphQLSchema;
  names: SchemaNames;
} {
  const names = schemaNames(config.schemaPrefix);
  const schema = buildTreeSchema({
    federation: config.federation,
    names,
    relayNode: config.relayNode,
    ...(config.nodeTypes ? { nodeTypes: config.nodeTypes } : {}),
  });
  return { schema, names };
}
