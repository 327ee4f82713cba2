import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { liveClient, subscribe } from '../../support/live.js';
import { eventually } from '../../support/eventually.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/npmStart.js';
import { startTestServer, uniqueTable, type TestServer } from '../../support/server.js';
import { buildTree } from '../../support/tree.js';

/**
 * Trusted documents: a server started with TRUSTED_DOCUMENTS runs the operations of the manifest
 * that `npm run example:manifest` writes for the example app, and nothing else.
 */
describe('TRUSTED_DOCUMENTS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'canopy-trusted-'));
  const manifestFile = join(dir, 'manifest.json');
  let open: TestServer;
  let trusted: TestServer;
  let operations: Array<{ id: string; name: string; body: string }>;

  const post = async (body: unknown) => {
    const response = await fetch(`${trusted.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const operation = (name: string) => operations.find((o) => o.name === name)!;

  beforeAll(async () => {
    execFileSync('npm', ['run', '-s', 'example:manifest', '--', manifestFile], {
      cwd: fileURLToPath(new URL('../../../', import.meta.url)),
      stdio: 'ignore',
    });
    operations = JSON.parse(readFileSync(manifestFile, 'utf8')).operations;
    const table = uniqueTable();
    // The app's schema: the typed catalogue's (npm run dev).
    const env = { NODE_TYPES: `${REPO_ROOT}schema/catalog.graphql` };
    open = await startTestServer({ table, env });
    await buildTree(open, { id: 'shelf', children: [{ id: 'book' }] });
    trusted = await startTestServer({ table, env: { ...env, TRUSTED_DOCUMENTS: manifestFile } });
  });
  afterAll(async () => {
    await trusted?.close();
    await open?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers every operation of the example app', () => {
    expect(operations.map((o) => o.name).sort()).toEqual([
      'Children',
      'CopySubtree',
      'CreateNode',
      'DeleteNode',
      'DeletedNodes',
      'DescendantCount',
      'GrantAccess',
      'Job',
      'NodeDetails',
      'NodeGrants',
      'NodeHistory',
      'RenameNode',
      'Reparent',
      'RestoreNode',
      'RevokeAccess',
      'Roots',
      'SharedWithMe',
      'TreeChanges',
      'TreeNode',
      'Undo',
      'UpdatePrice',
    ]);
  });

  it('runs a registered operation sent as text, in any layout, or by its id alone, over POST and GET', async () => {
    const roots = operation('Roots');
    const asText = await post({ query: roots.body, variables: { first: 5 } });
    expect(asText.body.data.roots.nodes.map((n: { id: string }) => n.id)).toEqual(['shelf']);
    const relaid = await post({ query: roots.body.replace(/\s+/g, ' '), variables: { first: 5 } });
    expect(relaid.body.data.roots.nodes).toHaveLength(1);
    const byId = await post({
      extensions: { persistedQuery: { version: 1, sha256Hash: operation('Children').id } },
      variables: { id: 'shelf', first: 5 },
    });
    expect(byId.body.data.node.children.nodes.map((n: { id: string }) => n.id)).toEqual(['book']);
    const search = new URLSearchParams({
      extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: operation('NodeDetails').id } }),
      variables: JSON.stringify({ id: 'book' }),
    });
    const get = await fetch(`${trusted.url}/graphql?${search.toString()}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(((await get.json()) as any).data.node.id).toBe('book');
  });

  it('refuses anything else before it runs: other text, unknown ids, introspection', async () => {
    for (const body of [
      { query: '{ roots { nodes { id name } } }' },
      { query: 'mutation { deleteNode(id: "shelf") { deletedCount } }' },
      { extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } },
      { query: '{ __schema { types { name } } }' },
    ]) {
      const refused = await post(body);
      expect(refused.status).toBe(400);
      expect(refused.body.errors.map((e: any) => e.extensions.code)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
    }
    expect((await open.gql('{ node(id: "shelf") { id } }')).body.data).toEqual({ node: { id: 'shelf' } });
  });

  it('runs a registered subscription over WebSocket, and refuses any other', async () => {
    const client = liveClient(trusted.url);
    try {
      const names: string[] = [];
      const errors: unknown[] = [];
      const stop = client.subscribe<{ treeChanges: { node: { name: string } | null } }>(
        { query: operation('TreeChanges').body, variables: { nodeId: 'shelf' } },
        {
          next: (result) => {
            if (result.data?.treeChanges.node) names.push(result.data.treeChanges.node.name);
          },
          error: (error) => errors.push(error),
          complete: () => {},
        },
      );
      // Changed through the other server on the table: found by the subscriber's reader.
      await eventually(
        'a change of the registered subscription',
        async () => {
          await open.gql('mutation { updateNode(id: "book", name: "read") { id } }');
          return names;
        },
        (seen) => seen.length > 0 || errors.length > 0,
      );
      expect(errors).toEqual([]);
      expect(names[0]).toBe('read');
      stop();
      const other = subscribe(client, { nodeId: 'shelf' }, 'kind');
      await other.until(1).catch(() => {});
      expect(other.errors.map((e) => (e as { extensions?: { code?: string } }).extensions?.code)).toEqual([
        'PERSISTED_QUERY_NOT_IN_LIST',
      ]);
    } finally {
      await client.dispose();
    }
  });

  it('refuses to start on a file that is not a manifest', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ operations: [] }));
    await expect(startTestServer({ env: { TRUSTED_DOCUMENTS: bad } })).rejects.toThrow(
      /TRUSTED_DOCUMENTS \(.*bad\.json\): not an Apollo persisted query manifest/,
    );
  });
});
