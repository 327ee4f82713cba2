import type { z } from 'zod';
import { API_KEY_ITEM } from '../../auth/apiKeys.js';
import {
  API_KEYS_PK,
  CHANGE_HEAD_SK,
  CHANGE_SK_PREFIX,
  CHANGES_PK_PREFIX,
  DEFAULT_TENANT_SK,
  DELETED_ENTRY_SK,
  DELETED_LIST_PK,
  DELETED_PACK_SK_PREFIX,
  EDGE_SK_PREFIX,
  GRANT_SK_PREFIX,
  HISTORY_SK_PREFIX,
  IMPORT_PACK_SK_PREFIX,
  IMPORT_PACKS_PK_PREFIX,
  JOB_SK_PREFIX,
  JOBS_PK,
  LEGACY_DELETE_SK_PREFIX,
  NODE_PK_PREFIX,
  NODE_SK,
  PATH_KEY_SK_PREFIX,
  OPEN_ENTRY_SK_PREFIX,
  OPEN_JOBS_SK,
  PRINCIPAL_PK_PREFIX,
  PRINCIPAL_SK,
  REINDEX_PK,
  ROOTS_PK,
  STRATEGIES_PK,
  TENANTS_PK,
} from '../../dynamodb/keys.js';
import { STRATEGY_RECORD_ITEM } from '../../dynamodb/strategyRecord.js';
import { GRANT_ITEM, PRINCIPAL_ITEM } from './access/grantItems.js';
import { CHANGE_HEAD_ITEM, CHANGE_ITEM } from './changes/changeRecord.js';
import { DELETED_ENTRY_ITEM, DELETED_LIST_ITEM, DELETED_PACK_ITEM } from './changes/deletedSubtree.js';
import { PATH_KEY_ITEM, STORED_NODE_ITEM } from './core/items.js';
import { OPEN_ENTRY_ITEM, OPEN_SUMMARY_ITEM } from './core/openJobs.js';
import { IMPORT_PACK_ITEM } from './jobs/importJob.js';
import { JOB_ITEM, LEGACY_DELETE_ITEM, TENANT_ITEM } from './jobs/jobRecord.js';
import { REINDEX_CHECKPOINT_ITEM } from './jobs/reindexJob.js';

/**
 * A kind of item kept in the table. Not the strategies' projection items: each strategy declares
 * their key prefixes (TreeStrategy.keyPrefixes), and the copies of nodes they carry are decoded
 * as node copies (core/items.ts NODE_ITEM).
 */
export interface ItemKind {
  /** What the item is. */
  name: string;
  /**
   * The keys it is kept under, as docs/design.md's table writes them: the constants of
   * dynamodb/keys.ts, `<...>` for what follows a prefix (an edge: in a node's collection or the
   * roots'). A tenant's items have `T#<tenant>#` before the pk, but for the pks of GLOBAL_PKS.
   */
  keys: ReadonlyArray<{ pk: string; sk: string }>;
  /**
   * The item as stored, declared in the module that owns the kind (beside its key's builder,
   * where it has one): what its reads decode it with (dynamodb/decodeItem.ts). Two kinds have
   * one that no read uses: a reindex checkpoint, of which nothing is read but its key, and a
   * change sequence, whose number is read from the answer of the update that counts it
   * (dynamodb/counter.ts).
   */
  schema: z.ZodType;
}

const edgeSk = `${EDGE_SK_PREFIX}<position>#<id>`;

/** Every kind of item the engine and the server keep in the table, the strategies' own aside. */
export const ITEM_KINDS: readonly ItemKind[] = [
  { name: 'node', keys: [{ pk: `${NODE_PK_PREFIX}<id>`, sk: NODE_SK }], schema: STORED_NODE_ITEM },
  {
    name: 'edge',
    keys: [
      { pk: `${NODE_PK_PREFIX}<parentId>`, sk: edgeSk },
      { pk: ROOTS_PK, sk: edgeSk },
    ],
    schema: STORED_NODE_ITEM,
  },
  {
    name: 'path key',
    keys: [{ pk: `${NODE_PK_PREFIX}<parentId>`, sk: `${PATH_KEY_SK_PREFIX}<value>` }],
    schema: PATH_KEY_ITEM,
  },
  { name: 'job', keys: [{ pk: JOBS_PK, sk: `${JOB_SK_PREFIX}<jobId>` }], schema: JOB_ITEM },
  { name: 'open job entry', keys: [{ pk: JOBS_PK, sk: `${OPEN_ENTRY_SK_PREFIX}<jobId>` }], schema: OPEN_ENTRY_ITEM },
  { name: 'open jobs summary', keys: [{ pk: JOBS_PK, sk: OPEN_JOBS_SK }], schema: OPEN_SUMMARY_ITEM },
  {
    name: 'legacy delete',
    keys: [{ pk: JOBS_PK, sk: `${LEGACY_DELETE_SK_PREFIX}<nodeId>` }],
    schema: LEGACY_DELETE_ITEM,
  },
  { name: 'reindex checkpoint', keys: [{ pk: REINDEX_PK, sk: '<strategy>' }], schema: REINDEX_CHECKPOINT_ITEM },
  {
    name: 'grant',
    keys: [{ pk: `${NODE_PK_PREFIX}<nodeId>`, sk: `${GRANT_SK_PREFIX}<principal>` }],
    schema: GRANT_ITEM,
  },
  {
    name: "a principal's grants",
    keys: [{ pk: `${PRINCIPAL_PK_PREFIX}<principal>`, sk: PRINCIPAL_SK }],
    schema: PRINCIPAL_ITEM,
  },
  { name: 'API key', keys: [{ pk: API_KEYS_PK, sk: '<keyId>' }], schema: API_KEY_ITEM },
  { name: 'tenant with open jobs', keys: [{ pk: TENANTS_PK, sk: '<tenant>' }], schema: TENANT_ITEM },
  {
    name: 'change sequence',
    keys: [{ pk: `${CHANGES_PK_PREFIX}<rootId>`, sk: CHANGE_HEAD_SK }],
    schema: CHANGE_HEAD_ITEM,
  },
  {
    name: 'change',
    keys: [{ pk: `${CHANGES_PK_PREFIX}<rootId>`, sk: `${CHANGE_SK_PREFIX}<seq>` }],
    schema: CHANGE_ITEM,
  },
  {
    name: 'history copy',
    keys: [{ pk: `${CHANGES_PK_PREFIX}<nodeId>`, sk: `${HISTORY_SK_PREFIX}<at>#<seq>#<rootId>` }],
    schema: CHANGE_ITEM,
  },
  {
    name: 'deleted subtree entry',
    keys: [{ pk: `${CHANGES_PK_PREFIX}<nodeId>`, sk: DELETED_ENTRY_SK }],
    schema: DELETED_ENTRY_ITEM,
  },
  {
    name: 'deleted subtree pack',
    keys: [{ pk: `${CHANGES_PK_PREFIX}<nodeId>`, sk: `${DELETED_PACK_SK_PREFIX}<token>#<n>` }],
    schema: DELETED_PACK_ITEM,
  },
  {
    name: 'deleted subtrees list item',
    keys: [{ pk: DELETED_LIST_PK, sk: '<at>#<nodeId>' }],
    schema: DELETED_LIST_ITEM,
  },
  {
    name: 'import pack',
    keys: [{ pk: `${IMPORT_PACKS_PK_PREFIX}<jobId>`, sk: `${IMPORT_PACK_SK_PREFIX}<n>` }],
    schema: IMPORT_PACK_ITEM,
  },
  {
    name: 'strategy record',
    keys: [
      { pk: STRATEGIES_PK, sk: '<tenant>' },
      { pk: STRATEGIES_PK, sk: DEFAULT_TENANT_SK },
    ],
    schema: STRATEGY_RECORD_ITEM,
  },
];
