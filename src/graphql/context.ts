import type { DynamoCost } from '../dynamodb/costMeter.js';
import type { Loaders } from '../loaders/createLoaders.js';
import type { TreeStore } from '../storage/treeStore.js';

export interface Context {
  store: TreeStore;
  loaders: Loaders;
  /** What the operation cost in DynamoDB so far, and its runtime budget (costMeter.ts). */
  cost: DynamoCost;
}
