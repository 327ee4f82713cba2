import type { Config } from './config.js';
import { DAY_MS, HOUR_MS, SECOND_MS } from './durations.js';
import { createDynamo, type Dynamo, type DynamoOptions } from './dynamodb/client.js';
import { createStore, type StoreOptions } from './storage/store/createStore.js';
import type { TreeAdmin } from './storage/treeStore.js';
import { USER_AGENT } from './version.js';

/**
 * The store the configuration describes (its admin, whose `store` the resolvers use), over a
 * DynamoDB client (the server's, or the CLI's).
 */
export function storeFor(
  config: Config,
  { doc }: Pick<Dynamo, 'doc'>,
  onJob?: StoreOptions['onJob'],
  onChanged?: StoreOptions['onChanged'],
): TreeAdmin {
  return createStore({
    doc,
    table: config.table,
    strategy: config.strategy,
    maxTreeDepth: config.maxTreeDepth,
    cursorSecret: config.cursorSecret,
    jobLeaseMs: config.jobLeaseSeconds * SECOND_MS,
    // A change's record serves live subscribers and history: kept for the longer of the two.
    changeRetentionMs: Math.max(config.changeRetentionHours * HOUR_MS, config.historyRetentionDays * DAY_MS),
    undoRetentionMs: config.undoRetentionDays * DAY_MS,
    transactionItems: config.transactionItems,
    runsJobs: config.jobRunner === 'process',
    ...(config.nodeTypes ? { nodeTypes: config.nodeTypes } : {}),
    ...(onJob ? { onJob } : {}),
    ...(onChanged ? { onChanged } : {}),
  });
}

/** The DynamoDB client the configuration describes, as a Lambda handler uses it (no embedded DynamoDB Local). */
export const dynamoFor = (config: Config, middleware?: DynamoOptions['middleware']): Dynamo =>
  createDynamo({
    middleware,
    endpoint: config.dynamodbEndpoint,
    region: config.region,
    timeouts: config.dynamodbTimeouts,
    userAgent: USER_AGENT,
  });
