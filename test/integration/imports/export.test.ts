import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvLine, type ExportRecord } from '../../../src/cli/exportTree.js';
import { createDynamo } from '../../../src/dynamodb/client.js';
import { loadTree } from '../../support/loadTree.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { buildTree, fullTree, okData, type TreeSpec } from '../../support/tree.js';
import { runTree, spawnTree } from '../../support/treeCli.js';

/** `npm run tree -- export`: every tree, or one subtree, as records an import can rebuild. */

/** Pure: CSV lines back to records (RFC 4180 quoting), for the test to read what it wrote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  return rows;
}

describe('csvLine', () => {
  it('quotes fields with commas, quotes or line breaks, and writes data as JSON', () => {
    const record: ExportRecord = {
      id: 'a',
      parentId: null,
      name: 'Tables, "chairs"',
      position: 'a0',
      data: { note: 'x,y' },
    };
    expect(csvLine(record)).toBe('a,,"Tables, ""chairs""",a0,"{""note"":""x,y""}"');
    expect(parseCsv(`${csvLine(record)}\n`)).toEqual([['a', '', 'Tables, "chairs"', 'a0', '{"note":"x,y"}']]);
    expect(csvLine({ ...record, name: 'plain', data: null })).toBe('a,,plain,a0,');
  });
});

describe.each(STRATEGIES_UNDER_TEST)('%s: tree export', (strategy) => {
  let server: TestServer;
  /** Every node in document order, as the API reads it (the export must agree). */
  let expected: ExportRecord[];

  beforeAll(async () => {
    server = await startTestServer({ strategy });
    await buildTree(server, {
      ...fullTree('shop', [3, 2]),
      name: 'Shop, "main"',
      data: { currency: 'EUR', tags: ['a', 'b'] },
    });
    await buildTree(server, fullTree('archive', [2]));
    // Sibling order is positions: shop.0 goes last among its siblings.
    okData(await server.gql('mutation { reparent(id: "shop.0", newParentId: "shop", after: "shop.2") { id } }'));
    const read = async (id: string): Promise<ExportRecord[]> => {
      const nodes = okData(
        await server.gql(
          `{ node(id: "${id}") { descendants(minDepth: 0, order: PREORDER, first: 1000) ` +
            '{ nodes { id parentId name position data } } } }',
        ),
      ).node.descendants.nodes as ExportRecord[];
      return nodes.map((n) => ({
        id: n.id,
        parentId: n.parentId,
        name: n.name,
        position: n.position,
        data: n.data ?? null,
      }));
    };
    const roots = okData(await server.gql('{ roots { nodes { id } } }')).roots.nodes.map((n: { id: string }) => n.id);
    expected = (await Promise.all(roots.map(read))).flat();
  }, 120_000);
  afterAll(() => server?.close());

  it('writes every tree as JSON records, parents first, each tree in document order', async () => {
    const run = await runTree(server, ['export']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('13 node(s) exported');
    const records = JSON.parse(run.stdout) as ExportRecord[];
    expect(records).toEqual(expected);
    expect(records.map((r) => r.id).slice(0, 4)).toEqual(['shop', 'shop.1', 'shop.1.0', 'shop.1.1']);
    expect(records[0]).toMatchObject({
      parentId: null,
      name: 'Shop, "main"',
      data: { currency: 'EUR', tags: ['a', 'b'] },
    });
    const seen = new Set<string>();
    for (const record of records) {
      if (record.parentId !== null) expect(seen.has(record.parentId)).toBe(true);
      seen.add(record.id);
    }
  });

  it('writes one subtree as CSV to a file, its top a root of the export', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'canopy-export-')), 'shop.csv');
    const run = await runTree(server, ['export', '--root', 'shop.1', '--format', 'csv', '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    const [header, ...rows] = parseCsv(readFileSync(out, 'utf8'));
    expect(header).toEqual(['id', 'parentId', 'name', 'position', 'data']);
    const subtree = expected.filter((r) => r.id === 'shop.1' || r.id.startsWith('shop.1.'));
    expect(rows).toEqual(
      subtree.map((r) => [
        r.id,
        r.id === 'shop.1' ? '' : r.parentId!,
        r.name,
        r.position,
        r.data === null ? '' : JSON.stringify(r.data),
      ]),
    );
  });

  // The command's refusals are the same under every strategy: checked under the first.
  it.runIf(strategy === STRATEGIES_UNDER_TEST[0])(
    'answers an unknown root with exit code 1, and a bad format with 2',
    async () => {
      const [missing, format] = await Promise.all([
        runTree(server, ['export', '--root', 'nowhere']),
        runTree(server, ['export', '--format', 'xml']),
      ]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/nowhere/);
      expect(format.code).toBe(2);
      expect(format.stderr).toMatch(/--format takes json or csv/);
    },
  );
});

describe('tree export into a pipe its reader closes (`| head -2`)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ strategy: STRATEGIES_UNDER_TEST[0] });
    // 421 nodes of 2 kB of data each: far more than a pipe holds, so that the export is still
    // writing when its reader goes.
    const withText = (spec: TreeSpec): TreeSpec => ({
      ...spec,
      data: { text: 'x'.repeat(2000) },
      children: spec.children?.map(withText),
    });
    const { doc, client } = createDynamo({ endpoint: server.config.dynamodbEndpoint, region: server.config.region });
    try {
      await loadTree(doc, server.table, server.config.strategy, [withText(fullTree('big', [20, 20]))]);
    } finally {
      client.destroy();
    }
  }, 120_000);
  afterAll(() => server?.close());

  it.each(['csv', 'json'])('ends quietly with exit code 0 (%s)', async (format) => {
    const child = spawnTree(server, ['export', '--format', format]);
    child.stdin.end();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    const first = await new Promise<Buffer>((resolve) => child.stdout.once('data', resolve));
    child.stdout.destroy();
    expect(first.toString()).toMatch(format === 'csv' ? /^id,parentId,name,position,data\n/ : /^\[/);
    expect(await closed).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|Error/);
  });
});
