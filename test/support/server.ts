import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { STRATEGY_NAMES, type StrategyName } from '../../src/storage/strategies/strategies.js';
import type { Logger } from '../../src/server/logger.js';
import { startServer, type RunningServer } from '../../src/server/startServer.js';
import { createDynamo, type DynamoOptions } from '../../src/dynamodb/client.js';
import { verifyTable } from '../../src/storage/maintenance/verifyTable.js';
import { TypedData } from '../../src/nodeTypes/typedData.js';
import type { Problem } from '../../src/storage/maintenance/verify.js';
import { conflictMiddleware, emulatesConflicts, IN_FLIGHT } from './transactionConflicts.js';

/** Every strategy the contract suite runs against (TEST_STRATEGIES=path,closure narrows it). */
export const STRATEGIES_UNDER_TEST: StrategyName[] = process.env.TEST_STRATEGIES
  ? (process.env.TEST_STRATEGIES.split(',') as StrategyName[])
  : [...STRATEGY_NAMES];

export interface GraphQLResponse<T = any> {
  status: number;
  body: {
    data?: T;
    errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, any> }>;
    extensions?: {
      dynamodb?: {
        requests: number;
        repeatedRequests: number;
        readUnits: number;
        writeUnits: number;
        awsWriteUnits: number;
        itemsWritten: number;
        itemsRead: number;
        repeatedItemsRead: number;
        itemsReturned: number;
      };
    } & Record<string, any>;
  };
}

export interface TestServer {
  url: string;
  table: string;
  config: Config;
  gql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<GraphQLResponse<T>>;
  /** `tree verify` on the table: the problems it finds (none, in a healthy table). */
  verify(): Promise<Problem[]>;
  /** Stops the server, after checking that verify finds no problem (unless verifyOnClose is false). */
  close(): Promise<void>;
}

export interface TestServerOptions {
  strategy?: StrategyName;
  /** Share a table between servers (two-process tests); default: a fresh table. */
  table?: string;
  env?: Record<string, string>;
  /** Fault injection: middleware added to the real SDK client. */
  middleware?: DynamoOptions['middleware'];
  /** Run `tree verify` when the server closes and fail on any problem (default true). */
  verifyOnClose?: boolean;
  /** The server's logger (default: none, LOG_LEVEL=silent). */
  logger?: Logger;
  /** Drops the pub/sub wake-ups it answers true for (PUBSUB_URL). */
  dropWakeUp?: () => boolean;
  /** Cancel transactions that meet another in flight, as AWS does (default: TEST_TRANSACTION_CONFLICTS). */
  emulateConflicts?: boolean;
}

export const uniqueTable = (): string => `t_${randomUUID().slice(0, 12)}`;

/** Two server processes on one new table (the second does not verify it when it closes). */
export async function startTwoProcesses(options: Omit<TestServerOptions, 'table'>): Promise<TestServer[]> {
  const table = uniqueTable();
  const first = await startTestServer({ ...options, table });
  return [first, await startTestServer({ ...options, table, verifyOnClose: false })];
}

/** Starts the real server (port 0) on the test run's DynamoDB Local, with a fresh table. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const table = options.table ?? uniqueTable();
  const config = loadConfig({
    PORT: '0',
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    DYNAMODB_TABLE: table,
    TREE_STRATEGY: options.strategy ?? 'adjacency',
    SEED_DEMO: 'false',
    // Quiet unless a test asks (it then gives a logger of its own).
    LOG_LEVEL: 'silent',
    // A sweep every 150 s: no background call meets the faults a test injects. Job tests lower it.
    JOB_LEASE_SECONDS: '300',
    // The small-transactions test project runs the suites with a budget of 10 items, so that
    // moves and deletes of a few nodes take the job paths.
    ...(process.env.TEST_TRANSACTION_ITEMS ? { TRANSACTION_ITEMS: process.env.TEST_TRANSACTION_ITEMS } : {}),
    ...options.env,
  });
  const running: RunningServer = await startServer(config, {
    // The `conflicts` project cancels transactions that name an item of another in flight, as AWS does.
    middleware:
      (options.emulateConflicts ?? emulatesConflicts())
        ? conflictMiddleware(IN_FLIGHT, options.middleware)
        : options.middleware,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.dropWakeUp ? { dropWakeUp: options.dropWakeUp } : {}),
  });
  const verify = async () => {
    const { doc, client } = createDynamo({ endpoint: config.dynamodbEndpoint, region: config.region });
    try {
      const typed = config.nodeTypes ? new TypedData(config.nodeTypes) : undefined;
      return (await verifyTable(doc, table, config.strategy, config.maxTreeDepth, {}, typed)).problems;
    } finally {
      client.destroy();
    }
  };
  return {
    url: running.url,
    table,
    config,
    async gql(query, variables, headers) {
      const response = await fetch(`${running.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: (await response.json()) as GraphQLResponse['body'] };
    },
    verify,
    async close() {
      await running.close();
      if (options.verifyOnClose === false) return;
      const problems = await verify();
      if (problems.length > 0) {
        throw new Error(
          `tree verify found ${problems.length} problem(s) in ${table}:\n${problems
            .slice(0, 20)
            .map((p) => `  ${p.nodeId}: ${p.problem}`)
            .join('\n')}`,
        );
      }
    },
  };
}

/** What an operation cost in DynamoDB: its answer's `extensions.dynamodb`. */
export type CostReport = NonNullable<NonNullable<GraphQLResponse['body']['extensions']>['dynamodb']>;

/** The cost report of an answer; an error when it has none. */
export function costOf(response: GraphQLResponse): CostReport {
  const cost = response.body.extensions?.dynamodb;
  if (!cost) throw new Error(`no extensions.dynamodb in ${JSON.stringify(response.body)}`);
  return cost;
}

/**
 * The DynamoDB requests an operation made by design: `requests` less those a read made again
 * because it took long around a job's start or close (`repeatedRequests`), which depend on the
 * machine's speed.
 */
export function plannedRequests(response: GraphQLResponse): number {
  const cost = costOf(response);
  return cost.requests - cost.repeatedRequests;
}

/** The items an operation read by design: `itemsRead` less those its repeated reads read. */
export function plannedItemsRead(response: GraphQLResponse): number {
  const cost = costOf(response);
  return cost.itemsRead - cost.repeatedItemsRead;
}
