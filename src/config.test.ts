import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, productionProblems } from './config.js';
import { STRATEGY_NAMES as STRATEGIES } from './storage/strategies/strategies.js';
import { CONFIG_VARIABLES } from './configVariables.js';
import { createDynamo } from './dynamodb/client.js';

describe('loadConfig', () => {
  it("defaults to the README's configuration table", () => {
    expect(loadConfig({})).toEqual({
      port: 4000,
      host: '127.0.0.1',
      auth: { mode: 'none', explicit: false },
      rateLimit: null,
      dynamodbEndpoint: undefined,
      embeddedDynamo: true,
      dynamodbLocalPort: 8000,
      dynamodbTimeouts: { connectMs: 2000, requestMs: 5000 },
      dataDir: '.data',
      table: 'tree',
      region: 'us-east-1',
      strategy: 'adjacency',
      maxTreeDepth: 64,
      seedDemo: true,
      production: false,
      cursorSecret: expect.any(String),
      corsOrigins: [],
      federation: false,
      schemaPrefix: '',
      relayNode: false,
      introspection: true,
      graphiql: true,
      trustedDocuments: undefined,
      jobLeaseSeconds: 5,
      changeRetentionHours: 24,
      historyRetentionDays: 30,
      undoRetentionDays: 7,
      pubsubUrl: undefined,
      liveMaxConnections: 10000,
      liveMaxSubscriptionsPerCaller: 100,
      liveMaxSubscriptionsPerConnection: 50,
      liveQueueLimit: 1000,
      grantsCacheMs: 30_000,
      jobRunner: 'process',
      transactionItems: 100,
      maxOperationRequests: 1000,
      maxOperationItemsRead: 20_000,
      logLevel: 'info',
      logFormat: 'auto',
      tracing: 'none',
      serviceName: 'canopy',
    });
  });

  it('reads NODE_TYPES, or lists every problem of its file, each with its line', () => {
    const types = loadConfig({ NODE_TYPES: 'schema/catalog.graphql' }).nodeTypes!;
    expect([...types.types.keys()]).toEqual(['Category', 'Product']);
    expect(() => loadConfig({ NODE_TYPES: 'no/such.graphql' })).toThrow(
      'NODE_TYPES (no/such.graphql): cannot read no/such.graphql: ENOENT',
    );
    const SCALARS = 'String, Int, Float, Boolean, DateTime';
    const dir = mkdtempSync(join(tmpdir(), 'node-types-'));
    const file = join(dir, 'bad.graphql');
    writeFileSync(file, 'type A {\n  id: String\n  n: Long\n}\n');
    try {
      loadConfig({ NODE_TYPES: file });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        `NODE_TYPES (${file}): line 2: A.id is a field of every node: name it otherwise`,
        `NODE_TYPES (${file}): line 3: A.n: Long is neither ${SCALARS} nor an enum of the file`,
        `NODE_TYPES (${file}): line 1: A has no field`,
      ]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('treats empty values as unset', () => {
    const empty = Object.fromEntries(
      CONFIG_VARIABLES.filter((name) => name !== 'TREE_STRATEGY').map((name) => [name, '']),
    );
    expect(loadConfig(empty)).toEqual(loadConfig({}));
  });

  it('treats an empty TREE_STRATEGY as unset', () => {
    expect(loadConfig({ TREE_STRATEGY: '' }).strategy).toBe('adjacency');
  });

  it('reads every documented variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      AUTH: 'jwt',
      JWT_SECRET: 'x'.repeat(32),
      JWT_ISSUER: 'https://issuer.example',
      JWT_AUDIENCE: 'canopy',
      JWT_CLOCK_SKEW_SECONDS: '5',
      TENANT_CLAIM: 'org',
      PERMISSIONS_CLAIM: 'https://canopy/trees',
      RATE_LIMIT_PER_SECOND: '20',
      RATE_LIMIT_BURST: '50',
      DYNAMODB_ENDPOINT: 'http://localhost:9000',
      DYNAMODB_LOCAL_PORT: '9001',
      DYNAMODB_CONNECT_TIMEOUT_MS: '100',
      DYNAMODB_REQUEST_TIMEOUT_MS: '200',
      DATA_DIR: '/var/lib/canopy',
      DYNAMODB_TABLE: 'forest',
      AWS_REGION: 'eu-west-1',
      TREE_STRATEGY: 'adjacency',
      MAX_TREE_DEPTH: '10',
      SEED_DEMO: 'false',
      NODE_ENV: 'production',
      CURSOR_SECRET: 's3cret',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      FEDERATION: 'true',
      SCHEMA_PREFIX: 'Tree',
      RELAY_NODE: 'true',
      INTROSPECTION: 'true',
      GRAPHIQL: 'yes',
      TRUSTED_DOCUMENTS: 'dist/persisted-query-manifest.json',
      JOB_LEASE_SECONDS: '2',
      CHANGE_RETENTION_HOURS: '48',
      HISTORY_RETENTION_DAYS: '90',
      UNDO_RETENTION_DAYS: '2',
      PUBSUB_URL: 'redis://cache:6379',
      LIVE_MAX_CONNECTIONS: '50',
      LIVE_MAX_SUBSCRIPTIONS_PER_CALLER: '5',
      LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION: '3',
      LIVE_QUEUE_LIMIT: '20',
      JOB_RUNNER: 'worker',
      TRANSACTION_ITEMS: '10',
      MAX_OPERATION_REQUESTS: '50',
      MAX_OPERATION_ITEMS_READ: '500',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      OTEL_TRACES_EXPORTER: 'console',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces',
      OTEL_SDK_DISABLED: 'false',
      OTEL_SERVICE_NAME: 'trees',
    });
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      auth: {
        mode: 'jwt',
        key: { secret: 'x'.repeat(32) },
        issuer: 'https://issuer.example',
        audience: 'canopy',
        clockSkewSeconds: 5,
        tenantClaim: 'org',
        permissionsClaim: 'https://canopy/trees',
        groupsClaim: 'groups',
      },
      rateLimit: { perSecond: 20, burst: 50 },
      dynamodbEndpoint: 'http://localhost:9000',
      embeddedDynamo: false,
      dynamodbLocalPort: 9001,
      dynamodbTimeouts: { connectMs: 100, requestMs: 200 },
      dataDir: '/var/lib/canopy',
      table: 'forest',
      region: 'eu-west-1',
      strategy: 'adjacency',
      maxTreeDepth: 10,
      seedDemo: false,
      production: true,
      cursorSecret: 's3cret',
      corsOrigins: ['https://a.example', 'https://b.example'],
      federation: true,
      schemaPrefix: 'Tree',
      relayNode: true,
      introspection: true,
      graphiql: true,
      trustedDocuments: 'dist/persisted-query-manifest.json',
      jobLeaseSeconds: 2,
      changeRetentionHours: 48,
      historyRetentionDays: 90,
      undoRetentionDays: 2,
      pubsubUrl: 'redis://cache:6379',
      liveMaxConnections: 50,
      liveMaxSubscriptionsPerCaller: 5,
      liveMaxSubscriptionsPerConnection: 3,
      liveQueueLimit: 20,
      grantsCacheMs: 30_000,
      jobRunner: 'worker',
      transactionItems: 10,
      maxOperationRequests: 50,
      maxOperationItemsRead: 500,
      logLevel: 'warn',
      logFormat: 'json',
      tracing: 'console',
      serviceName: 'trees',
    });
  });

  it('reads the authentication modes, and refuses incomplete or contradictory ones', () => {
    expect(loadConfig({ AUTH: 'none' }).auth).toEqual({ mode: 'none', explicit: true });
    expect(loadConfig({ AUTH: 'apikey' }).auth).toEqual({ mode: 'apikey', cacheMs: 30_000 });
    expect(loadConfig({ AUTH: 'jwt', JWT_JWKS_URL: 'https://issuer.example/jwks.json' }).auth).toEqual({
      mode: 'jwt',
      key: { jwksUrl: 'https://issuer.example/jwks.json' },
      issuer: undefined,
      audience: undefined,
      clockSkewSeconds: 30,
      tenantClaim: 'tenant',
      permissionsClaim: 'trees',
      groupsClaim: 'groups',
    });
    expect(() => loadConfig({ AUTH: 'jwt' })).toThrow(/AUTH=jwt needs exactly one of JWT_SECRET .* and JWT_JWKS_URL/);
    expect(() =>
      loadConfig({ AUTH: 'jwt', JWT_SECRET: 'x'.repeat(32), JWT_JWKS_URL: 'https://i.example/jwks' }),
    ).toThrow(/exactly one/);
    expect(() => loadConfig({ AUTH: 'jwt', JWT_SECRET: 'short' })).toThrow(/JWT_SECRET must be at least 32 bytes/);
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(32) })).toThrow(/JWT_SECRET apply to AUTH=jwt only; AUTH is none/);
    expect(() => loadConfig({ AUTH: 'basic' })).toThrow(/AUTH must be one of none, jwt, apikey, got "basic"/);
  });

  it('limits each caller in production by default, elsewhere only when asked', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).rateLimit).toEqual({ perSecond: 50, burst: 100 });
    expect(loadConfig({ NODE_ENV: 'production', RATE_LIMIT_PER_SECOND: '0' }).rateLimit).toBeNull();
    expect(loadConfig({ RATE_LIMIT_PER_SECOND: '5' }).rateLimit).toEqual({ perSecond: 5, burst: 10 });
    expect(() => loadConfig({ RATE_LIMIT_PER_SECOND: '-1' })).toThrow(
      /RATE_LIMIT_PER_SECOND must be a number of requests per second/,
    );
  });

  it('lists what production refuses: no AUTH, and the built-in cursor secret', () => {
    expect(productionProblems(loadConfig({ NODE_ENV: 'production' }))).toEqual([
      expect.stringMatching(/^AUTH must be set with NODE_ENV=production/),
      expect.stringMatching(/^CURSOR_SECRET must be set with NODE_ENV=production/),
    ]);
    expect(productionProblems(loadConfig({ NODE_ENV: 'production', AUTH: 'none', CURSOR_SECRET: 's3cret' }))).toEqual(
      [],
    );
    expect(productionProblems(loadConfig({ AUTH: undefined }))).toEqual([]);
  });

  it('turns introspection and GraphiQL off in production unless they are set', () => {
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ introspection: false, graphiql: false });
    expect(loadConfig({ NODE_ENV: 'production', INTROSPECTION: 'true', GRAPHIQL: '1' })).toMatchObject({
      introspection: true,
      graphiql: true,
    });
    expect(loadConfig({ INTROSPECTION: 'false', GRAPHIQL: 'no' })).toMatchObject({
      introspection: false,
      graphiql: false,
    });
    expect(() => loadConfig({ GRAPHIQL: 'maybe' })).toThrow(/GRAPHIQL must be true or false, got "maybe"/);
  });

  it('reads exactly the variables of the one list, no other', () => {
    const read = new Set<string>();
    const env = new Proxy({} as Record<string, string | undefined>, {
      get: (_target, name) => {
        read.add(String(name));
        return undefined;
      },
    });
    loadConfig(env);
    expect([...read].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('accepts every documented strategy name', () => {
    expect(STRATEGIES).toEqual(['adjacency', 'path', 'closure', 'nested-set']);
    for (const strategy of STRATEGIES) expect(loadConfig({ TREE_STRATEGY: strategy }).strategy).toBe(strategy);
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['No', false],
  ])('reads SEED_DEMO=%s as %s', (raw, value) => {
    expect(loadConfig({ SEED_DEMO: raw }).seedDemo).toBe(value);
  });

  it.each([
    ['PORT', 'abc', 'PORT must be an integer in 0..65535, got "abc"'],
    ['PORT', '70000', 'PORT must be an integer in 0..65535, got "70000"'],
    ['PORT', '80.5', 'PORT must be an integer in 0..65535, got "80.5"'],
    ['PORT', '-1', 'PORT must be an integer in 0..65535, got "-1"'],
    ['DYNAMODB_LOCAL_PORT', '0', 'DYNAMODB_LOCAL_PORT must be an integer in 1..65535, got "0"'],
    ['MAX_TREE_DEPTH', '0', 'MAX_TREE_DEPTH must be an integer in 1..90, got "0"'],
    ['MAX_TREE_DEPTH', '1e9', 'MAX_TREE_DEPTH must be an integer in 1..90, got "1e9"'],
    ['MAX_TREE_DEPTH', 'deep', 'MAX_TREE_DEPTH must be an integer in 1..90, got "deep"'],
    ['SEED_DEMO', 'maybe', 'SEED_DEMO must be true or false, got "maybe"'],
    ['JOB_LEASE_SECONDS', '0', 'JOB_LEASE_SECONDS must be an integer in 1..300, got "0"'],
    [
      'TREE_STRATEGY',
      'nested_set',
      'TREE_STRATEGY must be one of adjacency, path, closure, nested-set, got "nested_set"',
    ],
    [
      'TREE_STRATEGY',
      'Adjacency',
      'TREE_STRATEGY must be one of adjacency, path, closure, nested-set, got "Adjacency"',
    ],
    ['DYNAMODB_ENDPOINT', 'not-a-url', 'DYNAMODB_ENDPOINT must be an http:// or https:// URL, got "not-a-url"'],
    ['DYNAMODB_ENDPOINT', 'ftp://host', 'DYNAMODB_ENDPOINT must be an http:// or https:// URL, got "ftp://host"'],
    ['HOST', 'every', 'HOST must be an IP address or localhost, got "every"'],
    [
      'DYNAMODB_TABLE',
      'a b',
      'DYNAMODB_TABLE must be a DynamoDB table name (3 to 255 of A-Z a-z 0-9 _ . -), got "a b"',
    ],
  ])('refuses %s=%s, naming the variable', (name, raw, message) => {
    expect(() => loadConfig({ [name]: raw })).toThrow(message);
  });

  it('refuses a MAX_TREE_DEPTH at which the strategy cannot create a node in one transaction', () => {
    expect(() => loadConfig({ TREE_STRATEGY: 'closure', MAX_TREE_DEPTH: '88' })).toThrow(
      'MAX_TREE_DEPTH must be at most 87 with TREE_STRATEGY=closure ' +
        '(a create at that depth must fit one transaction of 100 actions), got "88"',
    );
    expect(loadConfig({ TREE_STRATEGY: 'closure', MAX_TREE_DEPTH: '87' }).maxTreeDepth).toBe(87);
    expect(loadConfig({ TREE_STRATEGY: 'path', MAX_TREE_DEPTH: '90' }).maxTreeDepth).toBe(90);
  });

  it("refuses RELAY_NODE without SCHEMA_PREFIX: the tree's Node would take the name of Relay's interface", () => {
    expect(() => loadConfig({ RELAY_NODE: 'true' })).toThrow(
      new ConfigError([
        "RELAY_NODE=true needs SCHEMA_PREFIX (e.g. Tree): the tree's node type is named Node without a prefix, " +
          "the name of Relay's interface",
      ]),
    );
    expect(loadConfig({ RELAY_NODE: 'true', SCHEMA_PREFIX: 'Tree' })).toMatchObject({ relayNode: true });
    expect(loadConfig({ RELAY_NODE: 'false' })).toMatchObject({ relayNode: false, schemaPrefix: '' });
    expect(() => loadConfig({ RELAY_NODE: 'relay' })).toThrow('RELAY_NODE must be true or false, got "relay"');
  });

  it('reports every invalid variable at once, one line each', () => {
    const env = {
      TREE_STRATEGY: 'foo',
      PORT: 'abc',
      MAX_TREE_DEPTH: '200',
      SEED_DEMO: 'nope',
      DYNAMODB_ENDPOINT: 'not-a-url',
    };
    let error: unknown;
    try {
      loadConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'PORT must be an integer in 0..65535, got "abc"',
      'DYNAMODB_ENDPOINT must be an http:// or https:// URL, got "not-a-url"',
      'TREE_STRATEGY must be one of adjacency, path, closure, nested-set, got "foo"',
      'MAX_TREE_DEPTH must be an integer in 1..90, got "200"',
      'SEED_DEMO must be true or false, got "nope"',
    ]);
    expect((error as Error).message).toMatch(/^invalid configuration:\n {2}- PORT/);
  });

  it('reads CORS_ORIGINS as the origins browsers send: default ports dropped, no trailing slash', () => {
    expect(loadConfig({ CORS_ORIGINS: ' https://App.example:443/ ,http://localhost:5173,, ' }).corsOrigins).toEqual([
      'https://app.example',
      'http://localhost:5173',
    ]);
  });

  it.each([
    ['app.example.com', '"app.example.com" has no http:// or https:// scheme'],
    ['ftp://files.example', '"ftp://files.example" has no http:// or https:// scheme'],
    [
      'https://app.example/app',
      '"https://app.example/app" has a path, query or fragment (an origin ends after the host and port)',
    ],
    ['https://app.example?x=1', '"https://app.example?x=1" has a path, query or fragment'],
    ['https://me:secret@app.example', '"https://me:secret@app.example" has a user name or password'],
  ])('refuses CORS_ORIGINS=%s, saying what is wrong with the entry', (raw, detail) => {
    expect(() => loadConfig({ CORS_ORIGINS: raw })).toThrow(
      `CORS_ORIGINS must be comma-separated origins scheme://host[:port] (e.g. https://app.example.com), ` +
        `got "${raw}": ${detail}`,
    );
  });

  it('names every bad CORS_ORIGINS entry in one line, beside the other problems', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'https://ok.example,nope,https://a.example/x', PORT: 'x' })).toThrow(
      new ConfigError([
        'PORT must be an integer in 0..65535, got "x"',
        'CORS_ORIGINS must be comma-separated origins scheme://host[:port] (e.g. https://app.example.com), ' +
          'got "https://ok.example,nope,https://a.example/x": "nope" has no http:// or https:// scheme; ' +
          '"https://a.example/x" has a path, query or fragment (an origin ends after the host and port)',
      ]),
    );
  });

  it('reads LOG_FORMAT: auto by default, pretty or json when forced', () => {
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'text' })).toThrow(
      'LOG_FORMAT must be one of auto, pretty, json, got "text"',
    );
  });

  it('traces over OTLP when an OTLP endpoint is set, unless told otherwise', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing).toBe('otlp');
    expect(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }).tracing).toBe('otlp');
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }).tracing,
    ).toBe('none');
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }).tracing).toBe('none');
  });

  it('accepts an http or https endpoint', () => {
    expect(loadConfig({ DYNAMODB_ENDPOINT: 'http://localhost:8000' }).dynamodbEndpoint).toBe('http://localhost:8000');
    expect(loadConfig({ DYNAMODB_ENDPOINT: 'https://dynamodb.eu-west-1.amazonaws.com' }).dynamodbEndpoint).toBe(
      'https://dynamodb.eu-west-1.amazonaws.com',
    );
  });
});

describe('where DynamoDB is', () => {
  const production = {
    NODE_ENV: 'production',
    AUTH: 'none',
    CURSOR_SECRET: 'a production secret',
    AWS_REGION: 'eu-west-1',
  };

  it('is the embedded DynamoDB Local in development, DYNAMODB_ENDPOINT when set, and never Java in production', () => {
    expect(loadConfig({}).embeddedDynamo).toBe(true);
    expect(loadConfig({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' }).embeddedDynamo).toBe(false);
    const config = loadConfig(production);
    expect([config.embeddedDynamo, config.dynamodbEndpoint, config.region]).toEqual([false, undefined, 'eu-west-1']);
    expect(loadConfig({ ...production, DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' }).embeddedDynamo).toBe(false);
  });

  it("gives production a client of the AWS SDK's regional endpoint and credential chain", async () => {
    const config = loadConfig(production);
    const { client } = createDynamo({ endpoint: config.dynamodbEndpoint, region: config.region });
    try {
      expect(await client.config.region()).toBe('eu-west-1');
      const { url } = client.config.endpointProvider({ Region: 'eu-west-1', UseFIPS: false, UseDualStack: false });
      expect(url.href).toBe('https://dynamodb.eu-west-1.amazonaws.com/');
      // No fixed credentials: the SDK's chain (a role, a profile) provides them, and with none
      // it fails (start.test.ts runs it, no credentials anywhere) instead of answering `local`.
      const stored = { ...process.env };
      for (const name of [
        'AWS_ACCESS_KEY_ID',
        'AWS_SECRET_ACCESS_KEY',
        'AWS_PROFILE',
        'AWS_CONTAINER_CREDENTIALS_FULL_URI',
      ])
        delete process.env[name];
      Object.assign(process.env, {
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/credentials',
        AWS_CONFIG_FILE: '/nonexistent/config',
      });
      try {
        await expect(client.config.credentials()).rejects.toThrow();
      } finally {
        for (const name of Object.keys(process.env)) if (!(name in stored)) delete process.env[name];
        Object.assign(process.env, stored);
      }
    } finally {
      client.destroy();
    }
  });
});
