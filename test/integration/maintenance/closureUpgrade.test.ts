/**
 * Upgrading a closure table of the earlier layout, whose rows past distance 3 were thin (the
 * descendant's id only): its reads stay right (those nodes read by id), `tree verify` names
 * every thin row, and `tree reindex --to closure` gives each its copy, after which a page of
 * descendants that reads no childCount nor data comes from the rows alone.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamo, type Dynamo } from '../../../src/dynamodb/client.js';
import { scanTable } from '../../../src/dynamodb/scan.js';
import { distanceOf } from '../../../src/storage/strategies/closure/closureKeys.js';
import { loadTree } from '../../support/loadTree.js';
import { plannedRequests, startTestServer, type TestServer } from '../../support/server.js';
import { fullTree, okData, specIds } from '../../support/tree.js';
import { runTree } from '../../support/treeCli.js';

const TREE = fullTree('c', [2, 2, 2, 2, 2]); // 63 nodes, 5 levels below the root

const LIST = `{ node(id: "c") { descendants(minDepth: 4, first: 100) { nodes { id } } } }`;
const COUNTED = `{ node(id: "c") { descendants(minDepth: 4, first: 100) { nodes { id childCount } } } }`;

describe('closure: upgrading thin rows past distance 3 to rows with copies', () => {
  let server: TestServer;
  let dynamo: Dynamo;
  const farRows = async () =>
    (await scanTable(dynamo.doc, server.table)).filter((i) => i.sk.startsWith('D#') && distanceOf(i.sk) > 3);

  beforeAll(async () => {
    server = await startTestServer({ strategy: 'closure' });
    dynamo = createDynamo({ endpoint: server.config.dynamodbEndpoint, region: server.config.region });
    await loadTree(dynamo.doc, server.table, 'closure', [TREE]);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    dynamo?.client.destroy();
  });

  it('answers the same from thin rows, verify names them, reindex gives them their copies', async () => {
    const deep = specIds(TREE).filter((id) => id.split('.').length > 4);
    const lean = okData(await server.gql(LIST)).node.descendants.nodes.map((n: { id: string }) => n.id);
    expect([...lean].sort()).toEqual([...deep].sort());

    // The earlier layout: rows past distance 3 hold their key and the descendant's id.
    const far = await farRows();
    expect(far).toHaveLength(16 + 32 + 32); // depth 4 and 5 below the root, depth 5 below depth 1
    expect(far.every((row) => typeof row.name === 'string' && row.childCount === undefined)).toBe(true);
    for (const row of far) {
      await dynamo.doc.send(new PutCommand({ TableName: server.table, Item: { pk: row.pk, sk: row.sk, id: row.id } }));
    }

    const thin = await server.gql(LIST);
    expect(okData(thin).node.descendants.nodes.map((n: { id: string }) => n.id)).toEqual(lean);
    // The nodes of thin rows are read by id: one BatchGet for the 48.
    expect(plannedRequests(thin)).toBe(1 + 1 + 1);
    const counted = okData(await server.gql(COUNTED)).node.descendants.nodes;
    for (const { id, childCount } of counted) expect(childCount).toBe(id.split('.').length <= 5 ? 2 : 0);

    const before = await runTree(server, ['verify']);
    expect(before.code, before.stderr).toBe(1);
    expect(before.stdout).toContain('63 nodes checked against the truth and the closure projection: 80 problem(s)');
    const named = [...before.stdout.matchAll(/: projection item (\S+) (\S+) differs/g)].map(
      ([, pk, sk]) => `${pk} ${sk}`,
    );
    expect(named.length).toBeGreaterThan(0);
    for (const key of named) expect(far.map((row) => `${row.pk} ${row.sk}`)).toContain(key);

    const reindexed = await runTree(server, ['reindex', '--to', 'closure']);
    expect(reindexed.code, reindexed.stderr).toBe(0);
    const after = await runTree(server, ['verify']);
    expect(after.code, after.stdout).toBe(0);

    const upgraded = await server.gql(LIST);
    expect(okData(upgraded).node.descendants.nodes.map((n: { id: string }) => n.id)).toEqual(lean);
    // The 48 rows alone: their nodes are no longer read (a reindex just ran, so the open jobs'
    // entries may be read too).
    const cost = (response: typeof thin) => response.body.extensions!.dynamodb!;
    expect(cost(upgraded).itemsRead).toBeLessThan(cost(thin).itemsRead - 40);
    expect(okData(await server.gql(COUNTED)).node.descendants.nodes).toEqual(counted);
  }, 120_000);
});
