import { z } from 'zod';
import { decoderOf } from './decodeItem.js';

/**
 * The table's key layout, in one place: the Key and Item types every layer shares, and every
 * partition and sort key prefix written to the table, so that no two kinds of item can collide.
 * The table has one partition key `pk` and one sort key `sk` (schema/table.json), no index.
 *
 *   pk                     sk                      item                              written by
 *   N#<id>                 NODE                    a node (the truth)                the engine
 *   N#<parentId> / ROOTS   E#<position>#<id>       an edge: a copy of a child        the engine
 *   N#<parentId>           K#<path key value>      the child of that path key, or    the engine
 *                                                  where it was before it moved
 *   N#<ancestorId>         D#<distance>#<id>       a closure row                     closure
 *   N#<id>                 G#<principal>           a grant on the node               the engine
 *   P#<principal>          GRANTS                  the principal's grants: one       the engine
 *                                                  attribute g:<nodeId> a grant
 *   L#<rootId>#<depth>     <encoded path>          a level item                      path
 *   S#<rootId>             <document key>          a range item                      nested-set
 *   JOBS                   JOB#<jobId>             a job and its lease               the engine
 *   JOBS                   OPEN                    whether jobs were open lately,    the engine
 *                                                  the projection, the reindex lock
 *   JOBS                   ENTRY#<jobId>           an open (or lately closed) job:   the engine
 *                                                  what reads need of it
 *   JOBS                   DELETE#<nodeId>         an open delete as earlier         earlier
 *                                                  versions recorded it (adopted)    versions
 *   REINDEX                <strategy>              a reindex checkpoint              earlier
 *                                                  (removed by the next reindex)     versions
 *   APIKEYS                <keyId>                 an API key (its secret's hash)    tree keys
 *   TENANTS                <tenant>                a tenant with open jobs           the engine
 *   C#<rootId>             HEAD                    a tree's change sequence          the engine
 *   C#<rootId>             S#<seq>                 a change (live updates, history)  the engine
 *   C#<nodeId>             H#<at>#<seq>#<rootId>   a copy of a change to the node,   the engine
 *                                                  in its history
 *   C#<nodeId>             DELETED                 the subtree deleted at the node:  the engine
 *                                                  its entry, kept to be restored
 *   C#<nodeId>             DELETED#<token>#<n>     a pack of its nodes (JSON)        the engine
 *   C#*deleted             <at>#<nodeId>           the list of the deleted subtrees  the engine
 *   C#*import#<jobId>      P#<n>                   a pack of an import's nodes       the engine
 *   STRATEGIES             <tenant> / (default)    the strategy a tenant's trees     first start,
 *                                                  are built for                     reindex
 *   T#<tenant>#<pk above>  <sk above>              a tenant's items (all but the three tenantDoc.ts
 *                                                  above, which are global)
 *
 * docs/design.md explains each kind; engine/itemKinds.ts lists them with their schemas. A
 * strategy declares the prefixes of its own items in its folder (TreeStrategy.keyPrefixes); no
 * prefix may be a prefix of another one sharing its key: keys.test.ts checks every prefix
 * exported here and every one a strategy declares. `C#*deleted` and `C#*import#` share the
 * change logs' prefix, under names no node id has ('*' is no id character).
 */
export type Key = { pk: string; sk: string };
export type Item = Record<string, unknown>;

/** The key attributes of every item. */
export const ITEM_KEY = z.object({ pk: z.string(), sk: z.string() });
/** The attribute of the items that name a node (node items, edges, projection items): its id. */
export const NODE_ID = z.object({ id: z.string() });

const decodeKey = decoderOf(ITEM_KEY);
const decodeSortKey = decoderOf(ITEM_KEY.pick({ sk: true }));
const decodeNodeId = decoderOf(NODE_ID);

/** An item's key, decoded (MalformedItem when it has none): what a write names of an item it read. */
export const keyOfItem = (item: Item): Key => {
  const { pk, sk } = decodeKey(item);
  return { pk, sk };
};
/** An item's sort key, decoded (MalformedItem when it has none: an item read without it). */
export const sortKeyOf = (item: Item): string => decodeSortKey(item).sk;
/** The id of the node an item names, decoded (MalformedItem when it names none). */
export const nodeIdOf = (item: Item): string => decodeNodeId(item).id;

export const keyString = (key: Key): string => `${key.pk}\u0000${key.sk}`;

/** pk of a node's item collection: its node item, its children's edges, its closure rows. */
export const NODE_PK_PREFIX = 'N#';
/** sk of a node item. */
export const NODE_SK = 'NODE';
/** pk of the roots' collection (their edges). */
export const ROOTS_PK = 'ROOTS';
/** sk prefix of an edge item; '#' sorts below every position character. */
export const EDGE_SK_PREFIX = 'E#';
/**
 * sk prefix of a path key item, in the parent's collection beside its children's edges:
 * `K#<path-key value>` holds the child of that value (or held it, until it moved).
 */
export const PATH_KEY_SK_PREFIX = 'K#';
/** Sorts just above every edge sort key ('$' follows '#'). */
export const EDGE_SK_END = 'E$';
/** sk prefix of a grant on a node (pk N#<nodeId>), the principal after it. */
export const GRANT_SK_PREFIX = 'G#';
/** pk prefix of a principal's grants (sk PRINCIPAL_SK), the principal after it. */
export const PRINCIPAL_PK_PREFIX = 'P#';
/** sk of a principal's grants. */
export const PRINCIPAL_SK = 'GRANTS';
/** pk of the jobs' records. */
export const JOBS_PK = 'JOBS';
/** sk prefix of a job's record in JOBS. */
export const JOB_SK_PREFIX = 'JOB#';
/**
 * sk of the item in JOBS that says whether jobs were open lately (so that reads look for their
 * entries), which strategy's projection the table holds, and which reindex runs. No transaction
 * names it: it is written alone (engine/core/openJobs.ts).
 */
export const OPEN_JOBS_SK = 'OPEN';
/** sk prefix of a job's entry among the open jobs in JOBS: written by the job's own transactions. */
export const OPEN_ENTRY_SK_PREFIX = 'ENTRY#';
/** sk prefix of an open delete's record as earlier versions wrote it (adopted by the sweep). */
export const LEGACY_DELETE_SK_PREFIX = 'DELETE#';
/** pk prefix of a tree's change log (engine/changes/changeRecord.ts), the tree's root id after it. */
export const CHANGES_PK_PREFIX = 'C#';
/** sk of a tree's change sequence: the last number handed out. */
export const CHANGE_HEAD_SK = 'HEAD';
/** sk prefix of a change, its sequence number after it. */
export const CHANGE_SK_PREFIX = 'S#';
/** sk prefix of the copy of a change in its node's history (pk C#<nodeId>): `<at>#<seq sk>#<rootId>` after it. */
export const HISTORY_SK_PREFIX = 'H#';
/** sk of the entry of the subtree last deleted at a node (pk C#<nodeId>: engine/changes/deletedSubtree.ts). */
export const DELETED_ENTRY_SK = 'DELETED';
/** sk prefix of a pack of a deleted subtree's nodes: `<token>#<n>` after it. */
export const DELETED_PACK_SK_PREFIX = `${DELETED_ENTRY_SK}#`;
/** pk of the list of a tenant's deleted subtrees, sk `<at>#<nodeId>`. */
export const DELETED_LIST_PK = `${CHANGES_PK_PREFIX}*deleted`;
/** pk prefix of the packs of a big import's list of nodes (engine/jobs/importJob.ts), the job's id after it. */
export const IMPORT_PACKS_PK_PREFIX = `${CHANGES_PK_PREFIX}*import#`;
/** sk prefix of an import's pack, its number after it. */
export const IMPORT_PACK_SK_PREFIX = 'P#';
/** pk of the reindex checkpoints. */
export const REINDEX_PK = 'REINDEX';
/** pk of the API keys (AUTH=apikey), one item per key, sk its id. */
export const API_KEYS_PK = 'APIKEYS';
/**
 * pk prefix of a tenant's items (TENANT_CLAIM): `T#<tenant>#` before every pk above, so that a
 * tenant's items are its own item collections (tenantDoc.ts). The default tenant's are unprefixed.
 */
export const TENANT_PK_PREFIX = 'T#';
/** pk of the tenants with open jobs (one item per tenant, sk its name), for the job sweep. */
export const TENANTS_PK = 'TENANTS';
/**
 * pk of the records of the strategy each tenant's trees are built for (strategyRecord.ts), sk
 * the tenant's name (DEFAULT_TENANT_SK for the default tenant). Global, so that a start reads
 * every tenant's in one Query.
 */
export const STRATEGIES_PK = 'STRATEGIES';
/** sk of the default tenant's record in STRATEGIES: no tenant is so named (TENANT_PATTERN has no parentheses). */
export const DEFAULT_TENANT_SK = '(default)';
/** The key of a node's item (the truth). */
export const nodeKey = (id: string): Key => ({ pk: `${NODE_PK_PREFIX}${id}`, sk: NODE_SK });
/** The pk of a parent's item collection, where its children's edges are (null: the roots'). */
export const collectionPk = (parentId: string | null): string =>
  parentId === null ? ROOTS_PK : `${NODE_PK_PREFIX}${parentId}`;
/** The sk of a child's edge in its parent's collection: by position, then id. */
export const edgeSk = (position: string, id: string): string => `${EDGE_SK_PREFIX}${position}#${id}`;

/** The key of the path key item of `value` among the children of `parentId`. */
export const pathKeyKey = (parentId: string, value: string): Key => ({
  pk: collectionPk(parentId),
  sk: `${PATH_KEY_SK_PREFIX}${value}`,
});

/** The pks no tenant prefix applies to: what the server reads before it knows a tenant, or across tenants. */
export const GLOBAL_PKS: ReadonlySet<string> = new Set([API_KEYS_PK, TENANTS_PK, STRATEGIES_PK]);
/** What a tenant's name may be: it becomes part of every key of the tenant. */
export const TENANT_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
