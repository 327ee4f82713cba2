import type { ConfigVariable } from './configVariables.js';
import { DEFAULT_STRATEGY, STRATEGY_NAMES, type StrategyName } from './storage/strategies/strategies.js';

/**
 * Configuration is read here, once, from the environment, and passed down. Nothing else in the
 * project reads process.env, and this file reads only the variables of configVariables.ts, each
 * documented in the README.
 */
export interface Config {
  port: number;
  /** Unset: start the embedded DynamoDB Local. */
  dynamodbEndpoint: string | undefined;
  dynamodbLocalPort: number;
  dataDir: string;
  table: string;
  region: string;
  strategy: StrategyName;
  /** MAX_TREE_DEPTH: the deepest depth a node may have (a root has depth 0). */
  maxTreeDepth: number;
  seedDemo: boolean;
  production: boolean;
  /** Secret that signs pagination cursors; share it between processes behind one endpoint. */
  cursorSecret: string;
  /** Browser origins allowed to call the API from another origin (CORS); empty: none. */
  corsOrigins: string[];
  /** Serve the schema as an Apollo Federation 2 subgraph (Node is an entity keyed by id). */
  federation: boolean;
  /** A job's lease: a job whose runner stops renewing it is taken over within 1.5 leases. */
  jobLeaseSeconds: number;
  /**
   * The items one transaction may hold (DynamoDB's limit, 100, by default). A move or delete
   * whose writes do not fit runs as a job, in chunks of this size; lower it only to run the
   * job paths on small trees (tests).
   */
  transactionItems: number;
  /**
   * The runtime budget of one query operation: at most this many DynamoDB requests and items
   * read; past it the operation stops with QUERY_TOO_COMPLEX and answers no data.
   */
  maxOperationRequests: number;
  maxOperationItemsRead: number;
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  /** A variable's value; empty counts as unset. */
  const read = (name: ConfigVariable): string | undefined => (env[name] === '' ? undefined : env[name]);
  const strategy = read('TREE_STRATEGY') ?? DEFAULT_STRATEGY;
  if (!(STRATEGY_NAMES as readonly string[]).includes(strategy)) {
    throw new Error(`TREE_STRATEGY must be one of ${STRATEGY_NAMES.join(', ')}, got "${strategy}"`);
  }
  const int = (name: ConfigVariable, fallback: number, min: number, max: number) =>
    intValue(name, read(name), fallback, min, max);
  const bool = (name: ConfigVariable, fallback: boolean) => boolValue(name, read(name), fallback);
  return {
    port: int('PORT', 4000, 0, 65535),
    dynamodbEndpoint: read('DYNAMODB_ENDPOINT'),
    dynamodbLocalPort: int('DYNAMODB_LOCAL_PORT', 8000, 1, 65535),
    dataDir: read('DATA_DIR') ?? '.data',
    table: read('DYNAMODB_TABLE') ?? 'tree',
    region: read('AWS_REGION') ?? 'us-east-1',
    strategy: strategy as StrategyName,
    maxTreeDepth: int('MAX_TREE_DEPTH', 64, 1, 90),
    seedDemo: bool('SEED_DEMO', true),
    production: read('NODE_ENV') === 'production',
    cursorSecret: read('CURSOR_SECRET') ?? 'canopy-default-cursor-secret',
    corsOrigins: (read('CORS_ORIGINS') ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin.length > 0),
    federation: bool('FEDERATION', false),
    jobLeaseSeconds: int('JOB_LEASE_SECONDS', 5, 1, 300),
    transactionItems: int('TRANSACTION_ITEMS', 100, 10, 100),
    maxOperationRequests: int('MAX_OPERATION_REQUESTS', 1000, 1, 100_000),
    maxOperationItemsRead: int('MAX_OPERATION_ITEMS_READ', 20_000, 1, 10_000_000),
  };
}

function intValue(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer in ${min}..${max}, got "${raw}"`);
  }
  return value;
}

function boolValue(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined) return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}
