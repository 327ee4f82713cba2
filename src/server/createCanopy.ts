import 'reflect-metadata';
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type GraphQLSchema, type ParseOptions, type ValidationRule } from 'graphql';
import type { IncomingHttpHeaders } from 'node:http';
import { createAuthenticator } from '../auth/authenticate.js';
import { checkBuiltStrategy } from '../checkBuiltStrategy.js';
import { ConfigError, loadConfig, type Config, type Env } from '../config.js';
import type { DynamoOptions } from '../dynamodb/client.js';
import { quickStartCacheDir, startDynamoLocal, type DynamoLocal } from '../dynamodb/dynamoLocal.js';
import { ensureTable } from '../dynamodb/table.js';
import { TreeError } from '../errors.js';
import { configuredSchema } from './configuredSchema.js';
import { seedDemoTree } from '../seed/demoTree.js';
import { dynamoFor, storeFor } from '../storeFor.js';
import { callerRefusal, createAdmission } from './admission.js';
import { createCostPlugin } from './costPlugin.js';
import { createFormatError } from './formatError.js';
import { createLimitsPlugin, DEFAULT_LIMITS } from './limitsPlugin.js';
import { requestContexts, type RequestContext } from './requestContexts.js';

/** What a request's resolvers get from Canopy: its caller, store, loaders and cost meter. */
export type CanopyContext = RequestContext;

/**
 * Canopy's parts for an Apollo Server the application already runs (docs/embedding.md): the
 * schema, the plugins that enforce the runtime budgets and add the cost report
 * (`extensions.dynamodb`), graphql-armor's validation rules and the parser's token limit, the
 * error formatter, and each request's context from its headers (AUTH).
 */
export interface Canopy {
  readonly config: Config;
  readonly schema: GraphQLSchema;
  readonly plugins: ApolloServerPlugin<CanopyContext>[];
  readonly validationRules: ValidationRule[];
  readonly parseOptions: ParseOptions;
  readonly formatError: ReturnType<typeof createFormatError>;
  /** A request's context (Apollo's `context` of expressMiddleware or startStandaloneServer). */
  context(request: { req: { headers: IncomingHttpHeaders } }): Promise<CanopyContext>;
  /** Stops the job runner, the DynamoDB client and the embedded DynamoDB Local, if one started. */
  stop(): Promise<void>;
}

export interface CanopyOptions {
  /** The configuration's variables (the README's; default: the process's environment). */
  env?: Env;
  /** Middleware on the DynamoDB client (faults, observation). */
  middleware?: DynamoOptions['middleware'];
}

/**
 * Canopy as a library, from the server's configuration: the table (created when missing, as the
 * server does), the demo seed when SEED_DEMO says so, the job runner (JOB_RUNNER=process), and the
 * embedded DynamoDB Local when the configuration means it (development without DYNAMODB_ENDPOINT).
 * Queries and mutations only: live updates need the server's transports (`canopy start`).
 * A ConfigError for a configuration it cannot serve, as the server's start (exit code 2) has.
 */
export async function createCanopy(options: CanopyOptions = {}): Promise<Canopy> {
  const config = loadConfig(options.env);
  if (config.trustedDocuments !== undefined) {
    throw new ConfigError([
      "TRUSTED_DOCUMENTS: a mounted Canopy runs in the application's server, which admits its operations: " +
        "use that server's own safelist, or unset it (it applies to canopy start)",
    ]);
  }
  const local = config.embeddedDynamo ? await startLocal(config) : undefined;
  try {
    return await assemble({ ...config, dynamodbEndpoint: local?.endpoint ?? config.dynamodbEndpoint }, options, local);
  } catch (error) {
    await local?.stop();
    throw error;
  }
}

async function assemble(config: Config, options: CanopyOptions, local: DynamoLocal | undefined): Promise<Canopy> {
  const dynamo = dynamoFor(config, options.middleware);
  await ensureTable(dynamo.client, config.table, { stream: config.jobRunner === 'worker' });
  const admin = storeFor(config, dynamo);
  await checkBuiltStrategy(config, admin);
  if (config.seedDemo) await seedDemoTree(admin.store, config.nodeTypes);
  const jobs = config.jobRunner === 'process' ? admin.startJobs() : undefined;
  const { schema, names } = configuredSchema(config);
  const authenticate = createAuthenticator(config.auth, dynamo.doc, config.table);
  const admission = createAdmission({ schema, authenticate, trusted: null, limits: DEFAULT_LIMITS });
  const contextFor = requestContexts(admin);
  const budget = { requests: config.maxOperationRequests, itemsRead: config.maxOperationItemsRead };
  return {
    config,
    schema,
    plugins: [
      createLimitsPlugin({
        limits: DEFAULT_LIMITS,
        budget,
        maxTreeDepth: config.maxTreeDepth,
        rootField: names.canonicalRootField,
      }),
      createCostPlugin(),
    ],
    validationRules: admission.validationRules,
    parseOptions: admission.parseOptions,
    formatError: createFormatError(config.production),
    context: async ({ req }) => contextFor(await callerOf(admission, req.headers)),
    stop: async () => {
      await jobs?.stop();
      dynamo.client.destroy();
      await local?.stop();
    },
  };
}

/** The caller, or Apollo's refusal: a GraphQLError with the status (401, or 503 when keys cannot be read). */
async function callerOf(admission: ReturnType<typeof createAdmission>, headers: IncomingHttpHeaders) {
  try {
    return await admission.caller(headers);
  } catch (error) {
    if (!(error instanceof TreeError)) throw error;
    const { status, headers } = callerRefusal(error);
    throw new GraphQLError(error.message, {
      originalError: error,
      extensions: { code: error.code, http: { status, headers: new Map(Object.entries(headers)) } },
    });
  }
}

/** The embedded DynamoDB Local, as `npm start` starts it. */
async function startLocal(config: Config): Promise<DynamoLocal> {
  return startDynamoLocal({
    port: config.dynamodbLocalPort,
    host: config.host,
    dataDir: config.dataDir,
    quickStart: { cacheDir: quickStartCacheDir() },
  });
}
