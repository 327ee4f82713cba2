import type { Key } from '../../dynamodb/batchGet.js';
import type { Projection } from '../truth/projection.js';
import { guardByParentPath, guardStoredPaths, readChainByPath, rewriteStoredPaths } from '../truth/storedPath.js';
import { closureRowKeys } from './closureKeys.js';

const keyId = (key: Key) => `${key.pk}\u0000${key.sk}`;

/**
 * Closure table: a row per (ancestor, descendant, distance), plus the path on each node item
 * (so that ancestors and depth are one BatchGet and a create guards one item, not its chain).
 * A move rewrites only the rows that link the subtree to the ancestors it leaves and joins;
 * rows inside the subtree stay as they are.
 */
export const CLOSURE_PROJECTION: Projection = {
  storesPath: true,
  readChain: readChainByPath,
  guardChain: guardByParentPath,
  onCreate(tx, node) {
    for (const key of closureRowKeys(node.path ?? [], node.id)) tx.put({ ...key, id: node.id });
  },
  onMove(tx, moved) {
    rewriteStoredPaths(tx, moved);
    for (const { stored, path, newPath } of moved) {
      const id = stored.node.id;
      const before = closureRowKeys(path, id);
      const after = closureRowKeys(newPath, id);
      const kept = new Set(before.map(keyId).filter((k) => after.some((a) => keyId(a) === k)));
      for (const key of before) if (!kept.has(keyId(key))) tx.delete(key);
      for (const key of after) if (!kept.has(keyId(key))) tx.put({ ...key, id });
    }
  },
  onDelete(tx, nodes) {
    guardStoredPaths(tx, nodes);
    for (const { stored, path } of nodes) for (const key of closureRowKeys(path, stored.node.id)) tx.delete(key);
  },
};
