import { EDGE_SK_END, EDGE_SK_PREFIX, JOB_SK_PREFIX, JOBS_PK, OPEN_ENTRY_SK_PREFIX } from '../../../dynamodb/keys.js';
import type { KeyQuery } from '../../../dynamodb/keyQuery.js';
import { collectionPk } from './items.js';

/**
 * Pure builders of the truth's Queries (run with keyQuery and queryItems), beside the write
 * plans. Every one reads a single item collection of the base table, strongly consistent.
 */

/** A parent's children (edge items) in sibling order, optionally resumed after an edge. */
export function childrenQuery(parentId: string | null, afterSk?: string, backwards = false): KeyQuery {
  return {
    pk: collectionPk(parentId),
    sk: { beginsWith: EDGE_SK_PREFIX },
    ...(afterSk === undefined ? {} : { after: afterSk }),
    ...(backwards ? { backwards } : {}),
  };
}

/**
 * The siblings next to edge sort key `fromSk` in a parent's collection, in `direction`
 * (`fromSk` included, for the caller to skip). fromSk null with 'before': from the last child.
 */
export function adjacentQuery(parentId: string | null, fromSk: string | null, direction: 'before' | 'after'): KeyQuery {
  const pk = collectionPk(parentId);
  const backwards = direction === 'before';
  if (fromSk === null) return { pk, sk: { beginsWith: EDGE_SK_PREFIX }, backwards };
  return { pk, sk: { between: backwards ? [EDGE_SK_PREFIX, fromSk] : [fromSk, EDGE_SK_END] }, backwards };
}

/** Every job record and entry (the sweep's read). */
export const openJobsQuery = (): KeyQuery => ({ pk: JOBS_PK });

/** The entries of the open (and lately closed) jobs (openJobs.ts). */
export const openEntriesQuery = (): KeyQuery => ({ pk: JOBS_PK, sk: { beginsWith: OPEN_ENTRY_SK_PREFIX } });

/** A page of job records in id order (oldest first), optionally after a record. */
export function jobsQuery(afterSk?: string, backwards = false): KeyQuery {
  return {
    pk: JOBS_PK,
    sk: { beginsWith: JOB_SK_PREFIX },
    ...(afterSk === undefined ? {} : { after: afterSk }),
    ...(backwards ? { backwards } : {}),
  };
}
