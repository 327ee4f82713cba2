import {
  CHANGES_PK_PREFIX,
  EDGE_SK_PREFIX,
  JOBS_PK,
  NODE_PK_PREFIX,
  PATH_KEY_SK_PREFIX,
  REINDEX_PK,
  ROOTS_PK,
  type Key,
} from '../../dynamodb/keys.js';
import { isNodeKey } from '../engine/core/items.js';
import { STRATEGIES, type StrategyName } from '../strategies/strategies.js';

/**
 * Pure: how the items of a table sort into the truth, the strategies' projections and job
 * records, and the trees' change logs. Used by `tree verify`.
 */
export type ItemKind = 'node' | 'edge' | 'pathKey' | 'job' | 'change' | StrategyName | 'other';

/** A table item's kind: a truth item (a path key too), a job record, or the projection item of a strategy. */
export function kindOf(item: Key): ItemKind {
  if (isNodeKey(item)) return 'node';
  if (item.sk.startsWith(EDGE_SK_PREFIX) && (item.pk === ROOTS_PK || item.pk.startsWith(NODE_PK_PREFIX))) return 'edge';
  if (item.sk.startsWith(PATH_KEY_SK_PREFIX) && item.pk.startsWith(NODE_PK_PREFIX)) return 'pathKey';
  if (item.pk === JOBS_PK || item.pk === REINDEX_PK) return 'job';
  if (item.pk.startsWith(CHANGES_PK_PREFIX)) return 'change';
  return STRATEGIES.find((strategy) => strategy.owns(item))?.name ?? 'other';
}
