import type { Loaders } from '../loaders/createLoaders.js';
import type { TreeStore } from '../storage/treeStore.js';

export interface Context {
  store: TreeStore;
  loaders: Loaders;
}
