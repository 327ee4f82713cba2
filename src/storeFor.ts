import type { Config } from './config.js';
import type { Dynamo } from './dynamodb/client.js';
import { createStore, type StoreOptions } from './storage/store/createStore.js';
import type { TreeAdmin } from './storage/treeStore.js';

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
    jobLeaseMs: config.jobLeaseSeconds * 1000,
    // A change's record serves live subscribers and history: kept for the longer of the two.
    changeRetentionMs: Math.max(config.changeRetentionHours * 3600, config.historyRetentionDays * 86400) * 1000,
    undoRetentionMs: config.undoRetentionDays * 86400 * 1000,
    transactionItems: config.transactionItems,
    runsJobs: config.jobRunner === 'process',
    ...(onJob ? { onJob } : {}),
    ...(onChanged ? { onChanged } : {}),
  });
}
