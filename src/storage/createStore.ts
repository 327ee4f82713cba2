import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config.js';
import { AdjacencyStore } from './adjacency/adjacencyStore.js';
import { ClosureStore } from './closure/closureStore.js';
import { createCursorCodec } from './cursor.js';
import { PathStore } from './path/pathStore.js';
import type { TreeStore } from './treeStore.js';

/** The one place that maps TREE_STRATEGY to an implementation of the storage interface. */
export function createStore(config: Config, doc: DynamoDBDocumentClient): TreeStore {
  const ctx = {
    doc,
    table: config.table,
    maxDepth: config.maxTreeDepth,
    cursors: createCursorCodec(config.cursorSecret),
  };
  switch (config.strategy) {
    case 'adjacency':
      return new AdjacencyStore(ctx);
    case 'path':
      return new PathStore(ctx);
    case 'closure':
      return new ClosureStore(ctx);
  }
}
