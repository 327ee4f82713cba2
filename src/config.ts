/**
 * Configuration is read here, once, from the environment, and passed down. Nothing else in the
 * project reads process.env. Every variable is documented in the README and in API.md.
 */
export const STRATEGIES = ['adjacency', 'path', 'closure'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

export interface Config {
  port: number;
  /** Unset: start the embedded DynamoDB Local. */
  dynamodbEndpoint: string | undefined;
  dynamodbLocalPort: number;
  dataDir: string;
  table: string;
  region: string;
  strategy: StrategyName;
  maxTreeDepth: number;
  seedDemo: boolean;
  production: boolean;
  /** Secret that signs pagination cursors; share it between processes behind one endpoint. */
  cursorSecret: string;
  /** Browser origins allowed to call the API from another origin (CORS); empty: none. */
  corsOrigins: string[];
  /** Serve the schema as an Apollo Federation 2 subgraph (Node is an entity keyed by id). */
  federation: boolean;
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const strategy = env.TREE_STRATEGY || 'adjacency';
  if (!(STRATEGIES as readonly string[]).includes(strategy)) {
    throw new Error(`TREE_STRATEGY must be one of ${STRATEGIES.join(', ')}, got "${strategy}"`);
  }
  return {
    port: intVar(env, 'PORT', 4000, 0, 65535),
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    dynamodbLocalPort: intVar(env, 'DYNAMODB_LOCAL_PORT', 8000, 1, 65535),
    dataDir: env.DATA_DIR || '.data',
    table: env.DYNAMODB_TABLE || 'tree',
    region: env.AWS_REGION || 'us-east-1',
    strategy: strategy as StrategyName,
    maxTreeDepth: intVar(env, 'MAX_TREE_DEPTH', 64, 1, 90),
    seedDemo: boolVar(env, 'SEED_DEMO', true),
    production: env.NODE_ENV === 'production',
    cursorSecret: env.CURSOR_SECRET || 'canopy-default-cursor-secret',
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin.length > 0),
    federation: boolVar(env, 'FEDERATION', false),
  };
}

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer in ${min}..${max}, got "${raw}"`);
  }
  return value;
}

function boolVar(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}
