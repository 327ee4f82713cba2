/**
 * The configuration variables of the public contract (API.md, and the README's configuration
 * table), in the order they are documented. Deployment files may set only these, plus the
 * AWS SDK's own credential variables.
 */
export const CONFIG_VARIABLES = [
  'PORT',
  'DYNAMODB_ENDPOINT',
  'DYNAMODB_LOCAL_PORT',
  'DATA_DIR',
  'DYNAMODB_TABLE',
  'AWS_REGION',
  'TREE_STRATEGY',
  'MAX_TREE_DEPTH',
  'SEED_DEMO',
] as const;

export type ConfigVariable = (typeof CONFIG_VARIABLES)[number];
