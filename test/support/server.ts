import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { loadConfig, type Config, type StrategyName } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server/startServer.js';
import type { DynamoOptions } from '../../src/dynamodb/client.js';

/** Every strategy the contract suite runs against (TEST_STRATEGIES=path,closure narrows it). */
export const STRATEGIES_UNDER_TEST: StrategyName[] = process.env.TEST_STRATEGIES
  ? (process.env.TEST_STRATEGIES.split(',') as StrategyName[])
  : ['adjacency'];

export interface GraphQLResponse<T = any> {
  status: number;
  body: {
    data?: T;
    errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, any> }>;
    extensions?: { dynamodb?: { requests: number; readUnits: number; writeUnits: number } } & Record<string, any>;
  };
}

export interface TestServer {
  url: string;
  table: string;
  config: Config;
  gql<T = any>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GraphQLResponse<T>>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  strategy?: StrategyName;
  /** Share a table between servers (two-process tests); default: a fresh table. */
  table?: string;
  env?: Record<string, string>;
  /** Fault injection: middleware added to the real SDK client. */
  middleware?: DynamoOptions['middleware'];
}

export const uniqueTable = (): string => `t_${randomUUID().slice(0, 12)}`;

/** Starts the real server (port 0) on the test run's DynamoDB Local, with a fresh table. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const table = options.table ?? uniqueTable();
  const config = loadConfig({
    PORT: '0',
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    DYNAMODB_TABLE: table,
    TREE_STRATEGY: options.strategy ?? 'adjacency',
    SEED_DEMO: 'false',
    ...options.env,
  });
  const running: RunningServer = await startServer(config, { middleware: options.middleware });
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
    close: () => running.close(),
  };
}
