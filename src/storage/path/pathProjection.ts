import type { Projection } from '../truth/projection.js';
import { guardByParentPath, guardStoredPaths, readChainByPath, rewriteStoredPaths } from '../truth/storedPath.js';
import { levelKey } from './levelKeys.js';

/** Materialized path: the path on each node item, plus one level item per node. */
export const PATH_PROJECTION: Projection = {
  storesPath: true,
  readChain: readChainByPath,
  guardChain: guardByParentPath,
  onCreate(tx, node) {
    const path = node.path ?? [];
    tx.put({ ...levelKey(path, node.id), id: node.id, path });
  },
  onMove(tx, moved) {
    rewriteStoredPaths(tx, moved);
    for (const { stored, path, newPath } of moved) {
      tx.delete(levelKey(path, stored.node.id));
      tx.put({ ...levelKey(newPath, stored.node.id), id: stored.node.id, path: newPath });
    }
  },
  onDelete(tx, nodes) {
    guardStoredPaths(tx, nodes);
    for (const { stored, path } of nodes) tx.delete(levelKey(path, stored.node.id));
  },
};
