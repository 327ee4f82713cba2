import type { Loaders } from '../loaders/createLoaders.js';
import type { Access } from './access.js';
import type { TreeStore } from '../storage/treeStore.js';

export interface Context {
  store: TreeStore;
  loaders: Loaders;
  /** What the caller may read and write. */
  access: Access;
}
