/**
 * The configuration variables, in the order the README's configuration table (and
 * docs/contract.md) documents them: the one list. config.ts reads the environment only through
 * these names, and deployment files (docker-compose.yml) may set only these, plus the AWS SDK's
 * own credential variables; tests check both.
 */
export const CONFIG_VARIABLES = [
  'PORT',
  'HOST',
  'AUTH',
  'JWT_SECRET',
  'JWT_JWKS_URL',
  'JWT_ISSUER',
  'JWT_AUDIENCE',
  'JWT_CLOCK_SKEW_SECONDS',
  'TENANT_CLAIM',
  'PERMISSIONS_CLAIM',
  'RATE_LIMIT_PER_SECOND',
  'RATE_LIMIT_BURST',
  'DYNAMODB_ENDPOINT',
  'DYNAMODB_LOCAL_PORT',
  'DYNAMODB_CONNECT_TIMEOUT_MS',
  'DYNAMODB_REQUEST_TIMEOUT_MS',
  'DATA_DIR',
  'DYNAMODB_TABLE',
  'AWS_REGION',
  'TREE_STRATEGY',
  'MAX_TREE_DEPTH',
  'SEED_DEMO',
  'NODE_ENV',
  'CURSOR_SECRET',
  'CORS_ORIGINS',
  'FEDERATION',
  'SCHEMA_PREFIX',
  'RELAY_NODE',
  'INTROSPECTION',
  'GRAPHIQL',
  'TRUSTED_DOCUMENTS',
  'JOB_LEASE_SECONDS',
  'JOB_RUNNER',
  'TRANSACTION_ITEMS',
  'MAX_OPERATION_REQUESTS',
  'MAX_OPERATION_ITEMS_READ',
  'LOG_LEVEL',
  'LOG_FORMAT',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_SDK_DISABLED',
  'OTEL_SERVICE_NAME',
] as const;

export type ConfigVariable = (typeof CONFIG_VARIABLES)[number];
