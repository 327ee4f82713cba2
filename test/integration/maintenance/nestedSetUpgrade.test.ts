/**
 * Upgrading a nested-set table of the earlier layout, whose range items were kept in one
 * collection per branch (`S#<depth-1 ancestor>`) rather than one per tree (`S#<root>`):
 * `tree verify` names every range item out of place, `tree reindex --to nested-set` rewrites
 * them in place, and the table then verifies and answers document order and counts from the
 * trees' collections, with nothing left in a branch's.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamo, type Dynamo } from '../../../src/dynamodb/client.js';
import { scanTable } from '../../../src/dynamodb/scan.js';
import { loadTree } from '../../support/loadTree.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { fullTree, okData, specIds } from '../../support/tree.js';
import { runTree } from '../../support/treeCli.js';

const TREES = [fullTree('u', [3, 2, 1]), fullTree('v', [2, 1])];
const ROOTS = TREES.map((tree) => tree.id);

const OUTLINE = `query($id: ID!) { node(id: $id) {
  descendantCount descendants(first: 1000, order: PREORDER) { nodes { id } }
} }`;

describe('nested-set: upgrading range items from branch collections to tree collections', () => {
  let server: TestServer;
  let dynamo: Dynamo;
  const rangeItems = async () => (await scanTable(dynamo.doc, server.table)).filter((i) => i.pk.startsWith('S#'));

  beforeAll(async () => {
    server = await startTestServer({ strategy: 'nested-set' });
    dynamo = createDynamo({ endpoint: server.config.dynamodbEndpoint, region: server.config.region });
    await loadTree(dynamo.doc, server.table, 'nested-set', TREES);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    dynamo?.client.destroy();
  });

  it('verify names the old layout; reindex rewrites it in place', async () => {
    // The earlier layout: each range item in the collection of its node's depth-1 ancestor.
    const moved: Array<{ id: string; from: string; to: string; sk: string }> = [];
    for (const item of await rangeItems()) {
      const path = item.path as string[];
      const old = `S#${path[1] ?? String(item.id)}`;
      await dynamo.doc.send(new PutCommand({ TableName: server.table, Item: { ...item, pk: old } }));
      await dynamo.doc.send(new DeleteCommand({ TableName: server.table, Key: { pk: item.pk, sk: item.sk } }));
      moved.push({ id: String(item.id), from: old, to: item.pk, sk: item.sk });
    }
    expect(moved).toHaveLength(19);

    const before = await runTree(server, ['verify']);
    expect(before.code, before.stderr).toBe(1);
    expect(before.stdout).toContain(
      '21 nodes checked against the truth and the nested-set projection: 38 problem(s) in 19 node(s)',
    );
    for (const { id, from, to, sk } of moved) {
      expect(before.stdout).toContain(`  ${id}: missing projection item ${to} ${sk}\n`);
      expect(before.stdout).toContain(`  ${id}: stray range item ${from} ${sk}\n`);
    }

    const reindexed = await runTree(server, ['reindex', '--to', 'nested-set']);
    expect(reindexed.code, reindexed.stderr).toBe(0);
    expect(reindexed.stdout).toContain('21 nodes reindexed for nested-set; now set TREE_STRATEGY=nested-set');

    const after = await runTree(server, ['verify']);
    expect(after.code, after.stdout).toBe(0);
    expect(after.stdout).toContain(
      '21 nodes checked against the truth and the nested-set projection: 0 problem(s) in 0 node(s)',
    );
    const left = await rangeItems();
    expect(left).toHaveLength(19);
    expect(new Set(left.map((i) => i.pk))).toEqual(new Set(ROOTS.map((id) => `S#${id}`)));

    for (const tree of [...TREES, ...TREES[0]!.children!]) {
      const node = okData(await server.gql(OUTLINE, { id: tree.id })).node;
      const below = specIds(tree).slice(1);
      expect(node.descendants.nodes.map((n: { id: string }) => n.id)).toEqual(below);
      expect(node.descendantCount).toBe(below.length);
    }
  }, 120_000);
});
