/**
 * The table's key layout, in one place: the Key and Item types every layer shares, and every
 * partition and sort key prefix written to the table, so that no two kinds of item can collide.
 * The table has one partition key `pk` and one sort key `sk` (schema/table.json), no index.
 *
 *   pk                     sk                      item                              written by
 *   N#<id>                 NODE                    a node (the truth)                the engine
 *   N#<parentId> / ROOTS   E#<position>#<id>       an edge: a copy of a child        the engine
 *   N#<ancestorId>         D#<distance>#<id>       a closure row                     closure
 *   L#<rootId>#<depth>     <encoded path>          a level item                      path
 *   S#<rootId>             <document key>          a range item                      nested-set
 *   JOBS                   JOB#<jobId>             a job and its lease               the engine
 *   JOBS                   OPEN                    whether jobs were open lately,    the engine
 *                                                  the projection, the reindex lock
 *   JOBS                   ENTRY#<jobId>           an open (or lately closed) job:   the engine
 *                                                  what reads need of it
 *   REINDEX                <strategy>              a reindex checkpoint              maintenance
 *   APIKEYS                <keyId>                 an API key (its secret's hash)    tree keys
 *   TENANTS                <tenant>                a tenant with open jobs           the engine
 *   C#<rootId>             HEAD                    a tree's change sequence          the engine
 *   C#<rootId>             S#<seq>                 a change (live updates, history)  the engine
 *   STRATEGIES             <tenant> / (default)    the strategy a tenant's trees     first start,
 *                                                  are built for                     reindex
 *   T#<tenant>#<pk above>  <sk above>              a tenant's items (all but the three tenantDoc.ts
 *                                                  above, which are global)
 *
 * docs/design.md explains each kind. A strategy declares the prefixes of its own items in its
 * folder (TreeStrategy.keyPrefixes); no prefix may be a prefix of another one sharing its key:
 * keys.test.ts checks every prefix exported here and every one a strategy declares.
 */
export type Key = { pk: string; sk: string };
export type Item = Record<string, unknown>;

export const keyString = (key: Key): string => `${key.pk}\u0000${key.sk}`;

/** pk of a node's item collection: its node item, its children's edges, its closure rows. */
export const NODE_PK_PREFIX = 'N#';
/** sk of a node item. */
export const NODE_SK = 'NODE';
/** pk of the roots' collection (their edges). */
export const ROOTS_PK = 'ROOTS';
/** sk prefix of an edge item; '#' sorts below every position character. */
export const EDGE_SK_PREFIX = 'E#';
/** Sorts just above every edge sort key ('$' follows '#'). */
export const EDGE_SK_END = 'E$';
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

/** The pks no tenant prefix applies to: what the server reads before it knows a tenant, or across tenants. */
export const GLOBAL_PKS: ReadonlySet<string> = new Set([API_KEYS_PK, TENANTS_PK, STRATEGIES_PK]);
/** What a tenant's name may be: it becomes part of every key of the tenant. */
export const TENANT_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
