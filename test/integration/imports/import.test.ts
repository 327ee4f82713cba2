import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExportRecord } from '../../../src/cli/exportTree.js';
import type { StrategyName } from '../../../src/storage/strategies/strategies.js';
import { parseImport } from '../../../src/cli/importRecords.js';
import { importTree } from '../../../src/cli/importTree.js';
import { createDynamo, type DynamoOptions } from '../../../src/dynamodb/client.js';
import { newCost } from '../../../src/dynamodb/costMeter.js';
import { createStore } from '../../../src/storage/store/createStore.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { buildTree, fullTree, okData, specIds } from '../../support/tree.js';
import { runTree } from '../../support/treeCli.js';
import { DAY_MS } from '../../../src/durations.js';

/**
 * `npm run tree -- import FILE`: checked whole (nothing written on any problem), then created
 * through the store's own creates; what export writes, import reads; run again, it resumes.
 */
const dir = mkdtempSync(join(tmpdir(), 'canopy-import-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** Every tree as the API reads it: records in document order, positions left out (they may differ). */
async function trees(server: TestServer): Promise<Array<Omit<ExportRecord, 'position'>>> {
  const roots = okData(await server.gql('{ roots { nodes { id } } }')).roots.nodes.map((n: { id: string }) => n.id);
  const all = [];
  for (const id of roots) {
    const nodes = okData(
      await server.gql(
        `{ node(id: "${id}") { descendants(minDepth: 0, order: PREORDER, first: 1000) ` +
          '{ nodes { id parentId name data } } } }',
      ),
    ).node.descendants.nodes as ExportRecord[];
    all.push(...nodes.map((n) => ({ id: n.id, parentId: n.parentId, name: n.name, data: n.data ?? null })));
  }
  return all;
}

/** Servers a test starts on `strategy`, closed (and verified) after it. */
function serversOn(strategy: StrategyName) {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  return async (env: Record<string, string> = {}) => {
    const started = await startTestServer({ strategy, env });
    servers.push(started);
    return started;
  };
}

/**
 * What the command does with a file (its formats included), whatever the strategy (it writes through the store's
 * creates, and every server verifies its table when it closes): on one strategy that keeps a
 * projection, to keep the suite's time.
 */
const CLI_STRATEGY: StrategyName = STRATEGIES_UNDER_TEST.includes('path') ? 'path' : STRATEGIES_UNDER_TEST[0]!;

describe.each(STRATEGIES_UNDER_TEST)('%s: tree import', (strategy) => {
  const server = serversOn(strategy);

  it('imports what export writes (JSON; CSV too on one strategy) into an empty table: the same trees', async () => {
    const source = await server();
    await buildTree(source, { ...fullTree('shop', [3, 3]), data: { currency: 'EUR' } });
    await buildTree(source, { id: 'archive', name: 'Archive, "old"', children: [{ id: 'a.1' }] });
    okData(await source.gql('mutation { reparent(id: "shop.0", newParentId: "shop", after: "shop.2") { id } }'));
    okData(await source.gql('mutation { updateNode(id: "shop.1.1", data: { size: 3, tags: ["x"] }) { id } }'));
    const expected = await trees(source);
    expect(expected).toHaveLength(15);

    for (const format of strategy === CLI_STRATEGY ? ['json', 'csv'] : ['json']) {
      const exported = await runTree(source, ['export', '--format', format]);
      expect(exported.code).toBe(0);
      const target = await server();
      const imported = await runTree(target, ['import', file(`trees.${format}`, exported.stdout)]);
      expect(imported.stdout).toContain('15 node(s) created, 0 already there');
      expect(imported.code).toBe(0);
      expect(await trees(target)).toEqual(expected);
      // Run again: nothing to do, nothing changed.
      const again = await runTree(target, ['import', file(`trees.${format}`, exported.stdout)]);
      expect(again.stdout).toContain('0 node(s) created, 15 already there');
      expect(await trees(target)).toEqual(expected);
    }
  });
});

describe(`${CLI_STRATEGY}: tree import, resumed and refused`, () => {
  const server = serversOn(CLI_STRATEGY);

  it('resumes an import that stopped partway, siblings in the order of the file', async () => {
    const target = await server();
    // Flat records in any order (children before parents), sibling order from the file.
    const records = [
      { id: 'c.2', parentId: 'c', name: 'second' },
      { id: 'c', parentId: null, name: 'catalog' },
      { id: 'c.2.1', parentId: 'c.2', name: 'deep' },
      { id: 'c.1', parentId: 'c', name: 'first', data: { note: 'kept' } },
      { id: 'c.3', parentId: 'c', name: 'third' },
    ];
    // The first records of each level, as an interrupted run leaves them.
    const partial = await runTree(target, ['import', file('partial.json', JSON.stringify(records.slice(0, 2)))]);
    expect(partial.stdout).toContain('2 node(s) created');
    const whole = await runTree(target, ['import', file('whole.json', JSON.stringify(records))]);
    expect(whole.stdout).toContain('3 node(s) created, 2 already there');
    expect(await trees(target)).toEqual([
      { id: 'c', parentId: null, name: 'catalog', data: null },
      { id: 'c.2', parentId: 'c', name: 'second', data: null },
      { id: 'c.2.1', parentId: 'c.2', name: 'deep', data: null },
      { id: 'c.1', parentId: 'c', name: 'first', data: { note: 'kept' } },
      { id: 'c.3', parentId: 'c', name: 'third', data: null },
    ]);
  });

  it('writes in packs of whole subtrees, through throttling: a pack throttled until the SDK gives up', async () => {
    const target = await server();
    // A middleware on a real client, after the SDK's retries: the 3 attempts of the 3rd
    // TransactWriteItems call fail, so the import's own backoff has to try the pack again.
    let calls = 0;
    let throttled = 0;
    const failing = new Set<string>();
    const throttle: DynamoOptions['middleware'] = (stack) =>
      stack.add(
        (next, context) => async (args) => {
          if (context.commandName === 'TransactWriteItemsCommand') {
            const invocation = String(
              (args.request as { headers?: Record<string, string> }).headers?.['amz-sdk-invocation-id'],
            );
            if (!failing.has(invocation) && !seen.has(invocation)) {
              seen.add(invocation);
              if (++calls === 3) failing.add(invocation);
            }
            if (failing.has(invocation)) {
              throttled++;
              throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
                name: 'ThrottlingException',
                $fault: 'client',
                $metadata: { httpStatusCode: 400, attempts: 1, totalRetryDelay: 0 },
              });
            }
          }
          return next(args);
        },
        { step: 'finalizeRequest', priority: 'low', name: 'throttleImport' },
      );
    const seen = new Set<string>();
    const { doc, client } = createDynamo({
      endpoint: target.config.dynamodbEndpoint!,
      region: 'us-east-1',
      middleware: throttle,
    });
    try {
      const store = createStore({
        doc,
        table: target.table,
        strategy: CLI_STRATEGY,
        maxTreeDepth: 64,
        cursorSecret: 'import',
        jobLeaseMs: 5000,
        transactionItems: 100,
        changeRetentionMs: DAY_MS,
        undoRetentionMs: 7 * DAY_MS,
      });
      const text = JSON.stringify(
        specIds(fullTree('t', [4, 5, 6])).map((id) => ({
          id,
          parentId: id.includes('.') ? id.slice(0, id.lastIndexOf('.')) : null,
          name: id,
        })),
      );
      const cost = newCost();
      const result = await importTree(store.store.scoped({ cost }), parseImport(text, 'json'), { maxTreeDepth: 64 });
      expect(result).toEqual({ created: 145, skipped: 0 });
      expect(throttled).toBe(3);
      // 145 nodes in 8 packs of whole subtrees (3 items a node, and the throttled pack again), not in 26 batches
      // of siblings, nor one transaction a node.
      expect(calls).toBeLessThanOrEqual(10);
      expect(cost.itemsWritten).toBeGreaterThanOrEqual(145 * 3);
    } finally {
      client.destroy();
    }
    expect((await trees(target)).map((n) => n.id)).toEqual(specIds(fullTree('t', [4, 5, 6])));
  });

  it('attaches records under a node of the table, and refuses a file with any problem, writing nothing', async () => {
    const target = await server({ MAX_TREE_DEPTH: '3' });
    await buildTree(target, { id: 'home', children: [{ id: 'home.1' }] });
    // CSV in a file whose name does not say so: its header does.
    const under = await runTree(
      target,
      ['import', file('under.txt', 'id,parentId,name\nn.1,home.1,one\nn.2,n.1,two\n')],
      { MAX_TREE_DEPTH: '3' },
    );
    expect(under.code).toBe(0);
    expect(under.stderr).toContain(`reading ${join(dir, 'under.txt')} as CSV: its first line is a CSV header`);
    expect(okData(await target.gql('{ node(id: "n.2") { depth ancestors { id } } }')).node).toEqual({
      depth: 3,
      ancestors: [{ id: 'home' }, { id: 'home.1' }, { id: 'n.1' }],
    });
    const before = await trees(target);

    // Every problem in one run, in the order of the lines: the file's own and those against the table.
    const bad = [
      'id,parentId,name',
      'x.1,home.1,fine',
      'x.2,n.2,too deep',
      'x.3,nowhere,orphan',
      'home.1,,moved',
      'x.4,x.4,self',
      'x.5,,"bad\tname"',
    ].join('\n');
    const refused = await runTree(target, ['import', file('bad.csv', bad)], { MAX_TREE_DEPTH: '3' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('nothing was written: the file has 5 problems:\n');
    expect(refused.stderr.split('\n').filter((line) => line.startsWith('  line'))).toEqual([
      '  line 3: "x.2" would lie at depth 4, past MAX_TREE_DEPTH (3)',
      '  line 4: parent "nowhere" is neither in the file nor in the table',
      '  line 5: id "home.1" is taken by a node under "home"',
      '  line 6: "x.4" names itself as its parent',
      '  line 7: name must be well-formed Unicode without control characters (tabs, line breaks); ' +
        'got "bad\\tname", which holds a tab',
    ]);
    expect(await trees(target)).toEqual(before);
  });
});
