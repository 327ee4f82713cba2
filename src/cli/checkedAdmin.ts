import { checkBuiltStrategy } from '../checkBuiltStrategy.js';
import type { Config } from '../config.js';
import type { Dynamo } from '../dynamodb/client.js';
import type { TreeAdmin } from '../storage/treeStore.js';
import { storeFor } from '../storeFor.js';
import type { StoreOptions } from '../storage/store/createStore.js';

/**
 * The store of a command that reads or writes nodes under TREE_STRATEGY (export, import, worker,
 * reindex --respace), once the table's trees are known to be built for it: otherwise a
 * ConfigError, which the program turns into its message and exit code 2 (checkBuiltStrategy.ts).
 * Its warnings (a reindex running) go to stderr.
 */
export async function checkedAdmin(
  config: Config,
  dynamo: Pick<Dynamo, 'doc'>,
  onJob?: StoreOptions['onJob'],
): Promise<TreeAdmin> {
  const admin = storeFor(config, dynamo, onJob);
  for (const warning of await checkBuiltStrategy(config, admin)) console.error(`warning: ${warning}`);
  return admin;
}
