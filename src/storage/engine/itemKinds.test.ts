import { describe, expect, it } from 'vitest';
import { API_KEY_ITEM } from '../../auth/apiKeys.js';
import { decodeItem, MalformedItem } from '../../dynamodb/decodeItem.js';
import { strategyRecordOf } from '../../dynamodb/strategyRecord.js';
import { CHANGE_HEAD_ITEM, changeFromItem } from './changes/changeRecord.js';
import { DELETED_LIST_ITEM, DELETED_PACK_ITEM, deletedEntryOf } from './changes/deletedSubtree.js';
import { nodeFromItem, PATH_KEY_ITEM, storedFromItem } from './core/items.js';
import { openEntryOf, openSummaryOf } from './core/openJobs.js';
import { IMPORT_PACK_ITEM } from './jobs/importJob.js';
import { jobFromItem, legacyDeleteOf, listedTenantOf } from './jobs/jobRecord.js';
import { REINDEX_CHECKPOINT_ITEM } from './jobs/reindexJob.js';
import { ITEM_KINDS } from './itemKinds.js';
import { grantOfItem, PRINCIPAL_ITEM } from './access/grantItems.js';

type Row = Record<string, unknown>;

const node = {
  id: 'n',
  name: 'N',
  position: 'a0',
  version: 1,
  childCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const snapshot = { ...node, parentId: null, data: null };
const change = { rootId: 'r', seq: 3, expiresAt: 9, kind: 'CREATED', nodeId: 'n', at: '2026-01-01T00:00:00.000Z' };
const entry = { nodeId: 'n', token: 't', packs: 1, count: 1, node: JSON.stringify(snapshot), at: 'x', expiresAt: 9 };

/**
 * Per kind: how its reads decode an item (the function at the read boundary, or its schema when
 * nothing but a write reads it), an item of the kind that is well formed, and one that is not,
 * with what is wrong.
 */
const KINDS: Record<string, Array<[read: (item: Row) => unknown, good: Row, bad: Row, problem: string]>> = {
  node: [
    [nodeFromItem, { pk: 'N#n', sk: 'NODE', ...node }, { pk: 'N#n', sk: 'NODE', ...node, version: '1' }, 'version:'],
    [storedFromItem, { pk: 'N#n', sk: 'NODE', ...node, rev: 2 }, { pk: 'N#n', sk: 'NODE', ...node, rev: '2' }, 'rev:'],
  ],
  edge: [
    [nodeFromItem, { pk: 'ROOTS', sk: 'E#a0#n', ...node }, { pk: 'ROOTS', sk: 'E#a0#n', ...node, name: 7 }, 'name:'],
  ],
  'path key': [
    [
      (item: Row) => decodeItem(PATH_KEY_ITEM, item),
      { pk: 'N#p', sk: 'K#laptops', id: 'n', live: 'n' },
      { pk: 'N#p', sk: 'K#laptops', live: 'n' },
      'id:',
    ],
  ],
  job: [
    [
      jobFromItem,
      { pk: 'JOBS', sk: 'JOB#j', id: 'j', kind: 'MOVE', startedAt: 'x' },
      { pk: 'JOBS', sk: 'JOB#j', id: 'j', kind: 'COPY', startedAt: 'x' },
      'kind:',
    ],
  ],
  'open job entry': [
    [
      openEntryOf,
      { pk: 'JOBS', sk: 'ENTRY#j', kind: 'DELETE', nodeId: 'n' },
      { pk: 'JOBS', sk: 'ENTRY#j', kind: 'DELETE', from: 'r' },
      'from:',
    ],
  ],
  'open jobs summary': [
    [
      openSummaryOf,
      { pk: 'JOBS', sk: 'OPEN', activeUntil: 5, projection: 'p' },
      { pk: 'JOBS', sk: 'OPEN', activeUntil: '5' },
      'activeUntil:',
    ],
  ],
  'legacy delete': [
    [
      legacyDeleteOf,
      { pk: 'JOBS', sk: 'DELETE#n', jobId: 'j', nodeId: 'n', createdAt: 'x' },
      { pk: 'JOBS', sk: 'DELETE#n', nodeId: 'n', createdAt: 'x' },
      'jobId:',
    ],
  ],
  'reindex checkpoint': [
    [(item) => decodeItem(REINDEX_CHECKPOINT_ITEM, item), { pk: 'REINDEX', sk: 'path' }, { pk: 'REINDEX' }, 'sk:'],
  ],
  'API key': [
    [
      (item) => decodeItem(API_KEY_ITEM, item),
      { pk: 'APIKEYS', sk: 'k', createdAt: 'x', hash: 'h' },
      { pk: 'APIKEYS', sk: 'k', createdAt: 'x', hash: 'h', trees: { r: 'owner' } },
      'trees.r:',
    ],
  ],
  'tenant with open jobs': [
    [listedTenantOf, { pk: 'TENANTS', sk: 'acme', since: 1 }, { pk: 'TENANTS', sk: 'acme', since: '1' }, 'since:'],
  ],
  'change sequence': [
    [
      (item) => decodeItem(CHANGE_HEAD_ITEM, item),
      { pk: 'C#r', sk: 'HEAD', seq: 4 },
      { pk: 'C#r', sk: 'HEAD' },
      'seq:',
    ],
  ],
  change: [
    [changeFromItem, { pk: 'C#r', sk: 'S#3', ...change }, { pk: 'C#r', sk: 'S#3', ...change, seq: '3' }, 'seq:'],
    [
      changeFromItem,
      { pk: 'C#r', sk: 'S#4', rootId: 'r', seq: 4, expiresAt: 9, kind: 'NONE' },
      { pk: 'C#r', sk: 'S#4', ...change, node: { ...snapshot, data: '{' } },
      'node.data: expected JSON text',
    ],
  ],
  'history copy': [
    [changeFromItem, { pk: 'C#n', sk: 'H#x', ...change }, { pk: 'C#n', sk: 'H#x', ...change, kind: 'COPY' }, 'kind:'],
  ],
  'deleted subtree entry': [
    [
      deletedEntryOf,
      { pk: 'C#n', sk: 'DELETED', ...entry },
      { pk: 'C#n', sk: 'DELETED', ...entry, node: '{"id":"n"}' },
      'node.parentId:',
    ],
  ],
  'deleted subtree pack': [
    [
      (item) => decodeItem(DELETED_PACK_ITEM, item),
      { pk: 'C#n', sk: 'DELETED#t#000000', nodes: JSON.stringify([snapshot]), expiresAt: 9 },
      { pk: 'C#n', sk: 'DELETED#t#000000', nodes: JSON.stringify([{ ...snapshot, version: null }]), expiresAt: 9 },
      'nodes.0.version:',
    ],
  ],
  'deleted subtrees list item': [
    [
      (item) => decodeItem(DELETED_LIST_ITEM, item),
      { pk: 'C#*deleted', sk: 'x#n', nodeId: 'n', token: 't', expiresAt: 9 },
      { pk: 'C#*deleted', sk: 'x#n', nodeId: 'n', expiresAt: 9 },
      'token:',
    ],
  ],
  grant: [
    [
      grantOfItem,
      { pk: 'N#n', sk: 'G#sub:ana', nodeId: 'n', principal: 'sub:ana', level: 'write', grantedBy: null, at: 'x' },
      { pk: 'N#n', sk: 'G#sub:ana', nodeId: 'n', principal: 'sub:ana', level: 'owner', grantedBy: null, at: 'x' },
      'level:',
    ],
  ],
  "a principal's grants": [
    [
      (item) => decodeItem(PRINCIPAL_ITEM, item),
      { pk: 'P#sub:ana', sk: 'GRANTS', n: 1, 'g:n': 'read' },
      { pk: 'P#sub:ana', sk: 'GRANTS', n: '1', 'g:n': 'read' },
      'n:',
    ],
  ],
  'import pack': [
    [
      (item) => decodeItem(IMPORT_PACK_ITEM, item),
      { pk: 'C#*import#j', sk: 'P#000000', nodes: '[["n",null,"a0"]]', expiresAt: 9 },
      { pk: 'C#*import#j', sk: 'P#000000', nodes: '[["n","a0"]]', expiresAt: 9 },
      'nodes.0:',
    ],
  ],
  'strategy record': [
    [
      strategyRecordOf,
      { pk: 'STRATEGIES', sk: '(default)', strategy: 'path', by: 'start', at: 'x' },
      { pk: 'STRATEGIES', sk: 'acme', by: 'start' },
      'strategy:',
    ],
  ],
};

const rows = Object.entries(KINDS).flatMap(([kind, cases]) => cases.map((row) => [kind, ...row] as const));

describe('the kinds of item', () => {
  it('lists every kind once, each with its schema, and each is checked below', () => {
    const names = ITEM_KINDS.map((kind) => kind.name);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(KINDS).sort()).toEqual([...names].sort());
  });

  it.each(rows)('decodes a %s item that is well formed, and its schema takes it', (kind, read, good) => {
    expect(() => read(good)).not.toThrow();
    expect(ITEM_KINDS.find((k) => k.name === kind)!.schema.safeParse(good).success).toBe(true);
  });

  it.each(rows)('refuses a malformed %s item with MalformedItem, naming its key', (kind, read, _good, bad, problem) => {
    const error = (() => {
      try {
        read(bad);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(MalformedItem);
    expect((error as Error).message).toContain(`item ${String(bad.pk)} ${String(bad.sk)} is malformed: ${problem}`);
    expect(ITEM_KINDS.find((k) => k.name === kind)!.schema.safeParse(bad).success).toBe(false);
  });
});
