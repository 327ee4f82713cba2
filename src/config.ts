import { z } from 'zod';
import { loadNodeTypes } from './nodeTypes/loadNodeTypes.js';
import type { NodeTypes } from './nodeTypes/nodeTypes.js';
import { StartRefused } from './errors.js';
import { CONFIG_VARIABLES, type ConfigVariable } from './configVariables.js';
import { DEFAULT_STRATEGY, STRATEGY_NAMES, strategyNamed, type StrategyName } from './storage/strategies/strategies.js';
import { unknownVariables } from './unknownVariables.js';

/**
 * Turns off, unless the environment says otherwise, the AWS SDK's warning (once per process, when
 * a client is built) that its releases after January 2027 will need Node 22: the lockfile pins
 * the SDK, so the warning tells an operator nothing until the SDK is upgraded, and then Node 22
 * is needed anyway. `AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=false` brings it back.
 */
function quietSdkNodeWarning(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}

/**
 * Configuration is read here, once, from the environment, and passed down. Nothing else in the
 * project reads process.env, and this file reads only the variables of configVariables.ts, each
 * documented in the README (and sets one of the AWS SDK's: quietSdkNodeWarning; and looks at the
 * names of the others for typos: configWarnings).
 */
export interface Config {
  port: number;
  /** The address the server listens on (HOST). */
  host: string;
  /** Who may call the API (AUTH and the JWT_ variables). */
  auth: AuthConfig;
  /**
   * Requests per second and burst per caller (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST), per
   * process; null: no limit (the default outside production).
   */
  rateLimit: { perSecond: number; burst: number } | null;
  /** DYNAMODB_ENDPOINT; unset: the embedded DynamoDB Local, or in production DynamoDB in `region`. */
  dynamodbEndpoint: string | undefined;
  /**
   * Whether this process starts the embedded DynamoDB Local: DYNAMODB_ENDPOINT unset, outside
   * production. In production without it, DynamoDB in AWS_REGION, through the AWS SDK's own
   * endpoint and credential chain: production never starts Java.
   */
  embeddedDynamo: boolean;
  dynamodbLocalPort: number;
  /** Per attempt: how long a DynamoDB call waits for a connection, and then for its answer. */
  dynamodbTimeouts: { connectMs: number; requestMs: number };
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
  /** SCHEMA_PREFIX: the prefix of the schema's type names and root fields ('' for none). */
  schemaPrefix: string;
  /** RELAY_NODE: the tree node implements Relay's `interface Node`, with global ids (needs SCHEMA_PREFIX). */
  relayNode: boolean;
  /** INTROSPECTION: schema introspection and field suggestions in errors (default: off in production). */
  introspection: boolean;
  /** GRAPHIQL: GraphiQL's page on GET /graphql for browsers (default: off in production). */
  graphiql: boolean;
  /** TRUSTED_DOCUMENTS: the manifest of the only operations that run; unset: any operation. */
  trustedDocuments: string | undefined;
  /** NODE_TYPES: the node types its file declares; unset: untyped nodes only. */
  nodeTypes: NodeTypes | undefined;
  /** A job's lease: a job whose runner stops renewing it is taken over within 1.5 leases. */
  jobLeaseSeconds: number;
  /** CHANGE_RETENTION_HOURS: how long a tree's changes stay in its log (live updates resume within it). */
  changeRetentionHours: number;
  /** HISTORY_RETENTION_DAYS: how long history lists a change (its record is kept that long). */
  historyRetentionDays: number;
  /** UNDO_RETENTION_DAYS: how long a deleted subtree stays restorable. */
  undoRetentionDays: number;
  /** LIVE_MAX_CONNECTIONS: GraphQL over WebSocket connections this process accepts at once. */
  liveMaxConnections: number;
  /** LIVE_MAX_SUBSCRIPTIONS_PER_CALLER: live subscriptions one caller holds at once, per process. */
  liveMaxSubscriptionsPerCaller: number;
  /** LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION: subscriptions one WebSocket connection holds at once. */
  liveMaxSubscriptionsPerConnection: number;
  /** LIVE_QUEUE_LIMIT: changes waiting to be sent to one subscriber before it is closed (SLOW_CONSUMER). */
  liveQueueLimit: number;
  /**
   * GRANTS_CACHE_MS: how often the grants on subtrees of a caller with open subscriptions are read again;
   * a revoked grant ends the streams it covered within it.
   */
  grantsCacheMs: number;
  /** PUBSUB_URL: the Redis or Valkey server that wakes the subscribers of every process; unset: this process alone. */
  pubsubUrl: string | undefined;
  /**
   * JOB_RUNNER: `process` (the process that starts a job runs it, and every server sweeps for
   * jobs whose runner stopped) or `worker` (servers only record jobs; the stream worker, `npm run
   * tree -- worker` or the Lambda handler, runs them).
   */
  jobRunner: JobRunner;
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
  /** LOG_LEVEL: the least severe level logged (pino's levels; `silent` logs nothing). */
  logLevel: LogLevel;
  /**
   * LOG_FORMAT: `json` (one JSON object a line), `pretty` (a readable line per event), or
   * `auto`: pretty at a terminal outside production, JSON otherwise (logger.ts, logFormatFor).
   */
  logFormat: LogFormat;
  /**
   * Where spans go (the standard OTEL variables): `none` (the default), `otlp` when
   * OTEL_TRACES_EXPORTER says so or an OTLP endpoint is set, `console` when asked.
   */
  tracing: 'none' | 'otlp' | 'console';
  /** OTEL_SERVICE_NAME: the service name on the spans. */
  serviceName: string;
}

export type Env = Record<string, string | undefined>;

/** How callers authenticate. */
export type AuthConfig =
  | { mode: 'none'; explicit: boolean }
  | {
      mode: 'apikey';
      /**
       * API_KEY_CACHE_MS: how long a process trusts what it read of a key's record. A revoked or
       * narrowed key reaches requests and open subscriptions within it.
       */
      cacheMs: number;
    }
  | {
      mode: 'jwt';
      /** HS256 shared secret (JWT_SECRET), or the JWKS URL of asymmetric keys (JWT_JWKS_URL). */
      key: { secret: string } | { jwksUrl: string };
      issuer: string | undefined;
      audience: string | undefined;
      clockSkewSeconds: number;
      /** The claim that names the caller's tenant (TENANT_CLAIM). */
      tenantClaim: string;
      /** The claim that grants trees (PERMISSIONS_CLAIM). */
      permissionsClaim: string;
      /** The claim that lists the caller's groups, for grants on subtrees (GROUPS_CLAIM). */
      groupsClaim: string;
    };

export const AUTH_MODES = ['none', 'jwt', 'apikey'] as const;
/** The shortest JWT_SECRET taken: HS256 wants a key of at least 256 bits. */
export const MIN_JWT_SECRET_BYTES = 32;
/** CURSOR_SECRET when unset: fine on a laptop, refused in production. */
export const BUILT_IN_CURSOR_SECRET = 'canopy-default-cursor-secret';

/** The values JOB_RUNNER accepts. */
export const JOB_RUNNERS = ['process', 'worker'] as const;
export type JobRunner = (typeof JOB_RUNNERS)[number];

/** The levels LOG_LEVEL accepts (pino's). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The values LOG_FORMAT accepts. */
export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** RELAY_NODE's interface is named Node: the tree's own node type must have another name. */
const RELAY_NODE_WITHOUT_PREFIX =
  "RELAY_NODE=true needs SCHEMA_PREFIX (e.g. Tree): the tree's node type is named Node without a prefix, " +
  "the name of Relay's interface";

/** Every problem of a configuration, one line each, for an operator to fix at once. */
export class ConfigError extends StartRefused {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

/** Each schema's description is what its variable must be, for the error message. */
const integer = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback).describe(`an integer in ${min}..${max}`);
const flag = (fallback: boolean) =>
  z
    .string()
    .regex(/^(true|false|1|0|yes|no)$/i)
    .transform((raw) => /^(true|1|yes)$/i.test(raw))
    .default(fallback)
    .describe('true or false');

/** A flag whose default depends on other variables (undefined when unset). */
const optionalFlag = () =>
  z
    .string()
    .regex(/^(true|false|1|0|yes|no)$/i)
    .transform((raw) => /^(true|1|yes)$/i.test(raw))
    .optional()
    .describe('true or false');

const SCHEMA = z.object({
  PORT: integer(4000, 0, 65535),
  HOST: z
    .union([z.ipv4(), z.ipv6(), z.literal('localhost')])
    .default('127.0.0.1')
    .describe('an IP address or localhost'),
  AUTH: z
    .enum(AUTH_MODES)
    .optional()
    .describe(`one of ${AUTH_MODES.join(', ')}`),
  JWT_SECRET: z.string().optional(),
  JWT_JWKS_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('an http:// or https:// URL'),
  JWT_ISSUER: z.string().optional(),
  JWT_AUDIENCE: z.string().optional(),
  JWT_CLOCK_SKEW_SECONDS: integer(30, 0, 300),
  TENANT_CLAIM: z
    .string()
    .regex(/^[A-Za-z0-9_.:/-]{1,128}$/)
    .optional()
    .describe('a claim name'),
  PERMISSIONS_CLAIM: z
    .string()
    .regex(/^[A-Za-z0-9_.:/-]{1,128}$/)
    .optional()
    .describe('a claim name'),
  GROUPS_CLAIM: z
    .string()
    .regex(/^[A-Za-z0-9_.:/-]{1,128}$/)
    .optional()
    .describe('a claim name'),
  API_KEY_CACHE_MS: integer(30_000, 10, 3_600_000),
  RATE_LIMIT_PER_SECOND: z.coerce
    .number()
    .min(0)
    .max(100_000)
    .optional()
    .describe('a number of requests per second in 0..100000 (0: no limit)'),
  RATE_LIMIT_BURST: integer(0, 0, 1_000_000),
  DYNAMODB_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('an http:// or https:// URL'),
  DYNAMODB_LOCAL_PORT: integer(8000, 1, 65535),
  DYNAMODB_CONNECT_TIMEOUT_MS: integer(2000, 10, 60_000),
  DYNAMODB_REQUEST_TIMEOUT_MS: integer(5000, 10, 600_000),
  DATA_DIR: z.string().default('.data'),
  DYNAMODB_TABLE: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{3,255}$/)
    .default('tree')
    .describe('a DynamoDB table name (3 to 255 of A-Z a-z 0-9 _ . -)'),
  AWS_REGION: z.string().default('us-east-1'),
  TREE_STRATEGY: z
    .enum(STRATEGY_NAMES)
    .default(DEFAULT_STRATEGY)
    .describe(`one of ${STRATEGY_NAMES.join(', ')}`),
  MAX_TREE_DEPTH: integer(64, 1, 90),
  SEED_DEMO: flag(true),
  NODE_ENV: z.string().optional(),
  CURSOR_SECRET: z.string().default(BUILT_IN_CURSOR_SECRET),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform(corsOrigins)
    .describe('comma-separated origins scheme://host[:port] (e.g. https://app.example.com)'),
  FEDERATION: flag(false),
  SCHEMA_PREFIX: z
    .string()
    .regex(/^([A-Z][A-Za-z0-9]{0,31})?$/)
    .default('')
    .describe('empty, or a capital letter then up to 31 letters and digits (Tree: TreeNode, treeRoots)'),
  RELAY_NODE: flag(false),
  INTROSPECTION: optionalFlag(),
  GRAPHIQL: optionalFlag(),
  TRUSTED_DOCUMENTS: z.string().optional(),
  NODE_TYPES: z.string().optional().describe('the path of an SDL file of node types (docs/contract.md, Typed nodes)'),
  JOB_LEASE_SECONDS: integer(5, 1, 300),
  CHANGE_RETENTION_HOURS: integer(24, 1, 24 * 365),
  HISTORY_RETENTION_DAYS: integer(30, 1, 3650),
  UNDO_RETENTION_DAYS: integer(7, 1, 3650),
  LIVE_MAX_CONNECTIONS: integer(10_000, 1, 1_000_000),
  LIVE_MAX_SUBSCRIPTIONS_PER_CALLER: integer(100, 1, 100_000),
  LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION: integer(50, 1, 100_000),
  LIVE_QUEUE_LIMIT: integer(1000, 1, 1_000_000),
  GRANTS_CACHE_MS: integer(30_000, 10, 3_600_000),
  PUBSUB_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/)
    .optional()
    .describe('a redis:// or rediss:// URL of a Redis or Valkey server'),
  JOB_RUNNER: z
    .enum(JOB_RUNNERS)
    .default('process')
    .describe(`one of ${JOB_RUNNERS.join(', ')}`),
  TRANSACTION_ITEMS: integer(100, 10, 100),
  MAX_OPERATION_REQUESTS: integer(1000, 1, 100_000),
  MAX_OPERATION_ITEMS_READ: integer(20_000, 1, 10_000_000),
  LOG_LEVEL: z
    .enum(LOG_LEVELS)
    .default('info')
    .describe(`one of ${LOG_LEVELS.join(', ')}`),
  LOG_FORMAT: z
    .enum(LOG_FORMATS)
    .default('auto')
    .describe(`one of ${LOG_FORMATS.join(', ')}`),
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'console', 'none']).optional().describe('one of otlp, console, none'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('an http:// or https:// URL'),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('an http:// or https:// URL'),
  OTEL_SDK_DISABLED: flag(false),
  OTEL_SERVICE_NAME: z.string().default('canopy'),
} satisfies Record<ConfigVariable, z.ZodType>);

/** The variables once validated by the schema. */
type Variables = z.infer<typeof SCHEMA>;
/** The variables as the environment gives them, empty ones unset. */
type RawVariables = Record<ConfigVariable, string | undefined>;

/**
 * The configuration from the environment (empty counts as unset), validated whole with zod:
 * every invalid variable is reported, each with what it must be and what it was (ConfigError).
 */
export function loadConfig(env: Env = process.env): Config {
  if (env === process.env) quietSdkNodeWarning();
  const raw = Object.fromEntries(
    CONFIG_VARIABLES.map((name) => [name, env[name] === '' ? undefined : env[name]]),
  ) as RawVariables;
  const v = validVariables(raw);
  const problem = combinationProblem(v, raw);
  if (problem) throw new ConfigError([problem]);
  const auth = authConfig(v);
  if (typeof auth === 'string') throw new ConfigError([auth]);
  return configOf(v, auth);
}

/** NODE_TYPES's node types; a ConfigError listing every problem of its file. */
function nodeTypesOf(path: string): NodeTypes {
  try {
    return loadNodeTypes(path);
  } catch (error) {
    throw new ConfigError((error as Error).message.split('\n').map((problem) => `NODE_TYPES (${path}): ${problem}`));
  }
}

/** The variables, validated by the schema; a ConfigError naming each invalid one. */
function validVariables(raw: RawVariables): Variables {
  const parsed = SCHEMA.safeParse(raw);
  if (parsed.success) return parsed.data;
  const names = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))] as ConfigVariable[];
  // A refinement's own message says what is wrong within the value (CORS_ORIGINS).
  const detail = (name: ConfigVariable) =>
    parsed.error.issues
      .filter((issue) => issue.path[0] === name && issue.code === 'custom')
      .map((issue) => issue.message)
      .join('; ');
  throw new ConfigError(
    names.map(
      (name) =>
        `${name} must be ${SCHEMA.shape[name].description ?? 'valid'}, got "${raw[name]}"` +
        (detail(name) ? `: ${detail(name)}` : ''),
    ),
  );
}

/** What is wrong with valid variables together (the depth TREE_STRATEGY allows; RELAY_NODE's prefix). */
function combinationProblem(v: Variables, raw: RawVariables): string | undefined {
  const deepest = strategyNamed(v.TREE_STRATEGY).maxDepthLimit;
  if (v.MAX_TREE_DEPTH > deepest) {
    return (
      `MAX_TREE_DEPTH must be at most ${deepest} with TREE_STRATEGY=${v.TREE_STRATEGY} ` +
      `(a create at that depth must fit one transaction of 100 actions), got "${raw.MAX_TREE_DEPTH}"`
    );
  }
  if (v.RELAY_NODE && !v.SCHEMA_PREFIX) return RELAY_NODE_WITHOUT_PREFIX;
  return undefined;
}

/** Pure: the configuration the valid variables describe. */
function configOf(v: Variables, auth: AuthConfig): Config {
  const production = v.NODE_ENV === 'production';
  return {
    port: v.PORT,
    host: v.HOST,
    auth,
    rateLimit: rateLimitOf(v),
    dynamodbEndpoint: v.DYNAMODB_ENDPOINT,
    embeddedDynamo: v.DYNAMODB_ENDPOINT === undefined && !production,
    dynamodbLocalPort: v.DYNAMODB_LOCAL_PORT,
    dynamodbTimeouts: { connectMs: v.DYNAMODB_CONNECT_TIMEOUT_MS, requestMs: v.DYNAMODB_REQUEST_TIMEOUT_MS },
    dataDir: v.DATA_DIR,
    table: v.DYNAMODB_TABLE,
    region: v.AWS_REGION,
    strategy: v.TREE_STRATEGY,
    maxTreeDepth: v.MAX_TREE_DEPTH,
    seedDemo: v.SEED_DEMO,
    production,
    cursorSecret: v.CURSOR_SECRET,
    corsOrigins: v.CORS_ORIGINS,
    federation: v.FEDERATION,
    schemaPrefix: v.SCHEMA_PREFIX,
    relayNode: v.RELAY_NODE,
    introspection: v.INTROSPECTION ?? !production,
    graphiql: v.GRAPHIQL ?? !production,
    trustedDocuments: v.TRUSTED_DOCUMENTS,
    nodeTypes: v.NODE_TYPES === undefined ? undefined : nodeTypesOf(v.NODE_TYPES),
    jobLeaseSeconds: v.JOB_LEASE_SECONDS,
    changeRetentionHours: v.CHANGE_RETENTION_HOURS,
    historyRetentionDays: v.HISTORY_RETENTION_DAYS,
    undoRetentionDays: v.UNDO_RETENTION_DAYS,
    liveMaxConnections: v.LIVE_MAX_CONNECTIONS,
    liveMaxSubscriptionsPerCaller: v.LIVE_MAX_SUBSCRIPTIONS_PER_CALLER,
    liveMaxSubscriptionsPerConnection: v.LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION,
    liveQueueLimit: v.LIVE_QUEUE_LIMIT,
    grantsCacheMs: v.GRANTS_CACHE_MS,
    pubsubUrl: v.PUBSUB_URL,
    jobRunner: v.JOB_RUNNER,
    transactionItems: v.TRANSACTION_ITEMS,
    maxOperationRequests: v.MAX_OPERATION_REQUESTS,
    maxOperationItemsRead: v.MAX_OPERATION_ITEMS_READ,
    logLevel: v.LOG_LEVEL,
    logFormat: v.LOG_FORMAT,
    tracing: tracingOf(v),
    serviceName: v.OTEL_SERVICE_NAME,
  };
}

/** Where spans go: none with the SDK disabled, else as OTEL_TRACES_EXPORTER says, else otlp when an endpoint is set. */
function tracingOf(v: Variables): Config['tracing'] {
  if (v.OTEL_SDK_DISABLED) return 'none';
  return (
    v.OTEL_TRACES_EXPORTER ?? (v.OTEL_EXPORTER_OTLP_ENDPOINT || v.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? 'otlp' : 'none')
  );
}

/**
 * CORS_ORIGINS as browsers send origins (scheme://host[:port], default port dropped), or an
 * issue per entry that is none: such an entry could never match a request's `Origin`, and would
 * lock a browser app out without a word (server/cors.ts).
 */
function corsOrigins(value: string, context: z.RefinementCtx): string[] {
  const entries = value
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin.length > 0);
  return entries.map((entry) => {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    const problem = !/^https?:\/\//i.test(entry)
      ? 'has no http:// or https:// scheme'
      : !url || url.hostname === ''
        ? 'is no URL'
        : url.username || url.password
          ? 'has a user name or password'
          : url.pathname !== '/' || url.search || url.hash || /[?#]/.test(entry)
            ? 'has a path, query or fragment (an origin ends after the host and port)'
            : undefined;
    if (problem) context.addIssue({ code: 'custom', message: `"${entry}" ${problem}` });
    return url?.origin ?? entry;
  });
}

/**
 * Warnings about the environment's names (not its values): variables that look meant for
 * Canopy but that it does not read, a typo most often (unknownVariables.ts). Printed at start;
 * they stop nothing.
 */
export function configWarnings(env: Env = process.env): string[] {
  return unknownVariables(Object.keys(env));
}

/** The authentication the variables describe, or what is wrong with them. */
function authConfig(v: Variables): AuthConfig | string {
  const mode = v.AUTH ?? 'none';
  const jwtOnly = (
    [
      'JWT_SECRET',
      'JWT_JWKS_URL',
      'JWT_ISSUER',
      'JWT_AUDIENCE',
      'TENANT_CLAIM',
      'PERMISSIONS_CLAIM',
      'GROUPS_CLAIM',
    ] as const
  ).filter((name) => v[name] !== undefined);
  if (mode !== 'jwt' && jwtOnly.length > 0) return `${jwtOnly.join(', ')} apply to AUTH=jwt only; AUTH is ${mode}`;
  if (mode === 'none') return { mode, explicit: v.AUTH !== undefined };
  if (mode === 'apikey') return { mode, cacheMs: v.API_KEY_CACHE_MS };
  if ((v.JWT_SECRET === undefined) === (v.JWT_JWKS_URL === undefined)) {
    return (
      'AUTH=jwt needs exactly one of JWT_SECRET (an HS256 shared secret) ' +
      "and JWT_JWKS_URL (the JWKS URL of the issuer's keys)"
    );
  }
  if (v.JWT_SECRET !== undefined && Buffer.byteLength(v.JWT_SECRET) < MIN_JWT_SECRET_BYTES) {
    return (
      `JWT_SECRET must be at least ${MIN_JWT_SECRET_BYTES} bytes (HS256 wants a 256-bit key), ` +
      `got ${Buffer.byteLength(v.JWT_SECRET)}`
    );
  }
  return {
    mode,
    key: v.JWT_SECRET !== undefined ? { secret: v.JWT_SECRET } : { jwksUrl: v.JWT_JWKS_URL! },
    issuer: v.JWT_ISSUER,
    audience: v.JWT_AUDIENCE,
    clockSkewSeconds: v.JWT_CLOCK_SKEW_SECONDS,
    tenantClaim: v.TENANT_CLAIM ?? 'tenant',
    permissionsClaim: v.PERMISSIONS_CLAIM ?? 'trees',
    groupsClaim: v.GROUPS_CLAIM ?? 'groups',
  };
}

/** Production's rate limit when none is set: per caller, per process. */
export const PRODUCTION_RATE_LIMIT = { perSecond: 50, burst: 100 };

/** The rate limit: RATE_LIMIT_PER_SECOND (0: none), a burst of twice the rate unless set. */
function rateLimitOf(v: Variables): Config['rateLimit'] {
  const perSecond = v.RATE_LIMIT_PER_SECOND ?? (v.NODE_ENV === 'production' ? PRODUCTION_RATE_LIMIT.perSecond : 0);
  if (perSecond === 0) return null;
  return { perSecond, burst: v.RATE_LIMIT_BURST || Math.max(1, Math.ceil(perSecond * 2)) };
}

/**
 * What production refuses to start with, one line each: no AUTH (serving without
 * authentication must be asked for, with AUTH=none), and the built-in CURSOR_SECRET.
 */
export function productionProblems(config: Config): string[] {
  if (!config.production) return [];
  const problems: string[] = [];
  if (config.auth.mode === 'none' && !config.auth.explicit) {
    problems.push('AUTH must be set with NODE_ENV=production: jwt, apikey, or none to serve without authentication');
  }
  if (config.cursorSecret === BUILT_IN_CURSOR_SECRET) {
    problems.push(
      'CURSOR_SECRET must be set with NODE_ENV=production (the built-in one is public); ' +
        'the same secret for every process behind the endpoint',
    );
  }
  return problems;
}
