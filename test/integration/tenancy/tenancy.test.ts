import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDynamo } from '../../../src/dynamodb/client.js';
import { GLOBAL_PKS, TENANTS_PK } from '../../../src/dynamodb/keys.js';
import { scanTable } from '../../../src/dynamodb/scan.js';
import { tenantDoc } from '../../../src/dynamodb/tenantDoc.js';
import { verifyTable } from '../../../src/storage/maintenance/verifyTable.js';
import { CallCounter } from '../../support/callCounter.js';
import { eventually } from '../../support/eventually.js';
import { capturedLogger } from '../../support/capturedLogger.js';
import { pauseTransaction } from '../../support/pause.js';
import {
  plannedRequests,
  startTestServer,
  STRATEGIES_UNDER_TEST,
  uniqueTable,
  type GraphQLResponse,
  type TestServer,
} from '../../support/server.js';
import { buildTree, fullTree } from '../../support/tree.js';

/**
 * Tenant isolation in the keys: a token's `tenant` claim puts every key the request reads or
 * writes under the tenant's prefix. Two tenants here hold trees with the same ids; a third caller
 * has no tenant claim (the default tenant, unprefixed keys). No query, mutation, cursor or id of
 * one reaches another's items, on every strategy.
 */

const SECRET = 'a-tenancy-secret-of-at-least-32-bytes';

const token = (claims: Record<string, unknown>) =>
  new SignJWT({ sub: 'u', exp: Math.floor(Date.now() / 1000) + 600, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));

type Gql = (query: string, variables?: Record<string, unknown>) => Promise<GraphQLResponse>;
const codes = (response: GraphQLResponse) => response.body.errors?.map((e) => e.extensions?.code) ?? [];
const ENV = { AUTH: 'jwt', JWT_SECRET: SECRET, FEDERATION: 'true' };

async function caller(server: TestServer, tenant: string | undefined): Promise<Gql> {
  const authorization = `Bearer ${await token(tenant === undefined ? {} : { tenant })}`;
  return (query, variables) => server.gql(query, variables, { authorization });
}

/** Every item of the table, read below the server (its raw keys). */
async function rawItems(server: TestServer) {
  const { doc, client } = createDynamo({ endpoint: server.config.dynamodbEndpoint, region: server.config.region });
  try {
    // A tenant client of no tenant filters; read the table through the plain client.
    return await scanTable(doc, server.table);
  } finally {
    client.destroy();
  }
}

async function verifyTenant(server: TestServer, tenant: string | null) {
  const { doc, client } = createDynamo({ endpoint: server.config.dynamodbEndpoint, region: server.config.region });
  try {
    return await verifyTable(tenantDoc(doc, tenant), server.table, server.config.strategy, server.config.maxTreeDepth);
  } finally {
    client.destroy();
  }
}

describe.each(STRATEGIES_UNDER_TEST)('%s: tenants', (strategy) => {
  let server: TestServer;
  let acme: Gql;
  let globex: Gql;
  let plain: Gql;
  const counter = new CallCounter();
  const { logger, lines } = capturedLogger();

  beforeAll(async () => {
    server = await startTestServer({ strategy, env: ENV, middleware: counter.install, logger });
    [acme, globex, plain] = await Promise.all([
      caller(server, 'acme'),
      caller(server, 'globex'),
      caller(server, undefined),
    ]);
    const as = (gql: Gql) => ({ ...server, gql });
    await buildTree(as(acme), {
      id: 'a',
      name: 'acme root',
      children: [{ id: 'a1', children: [{ id: 'a11' }] }, { id: 'a2' }],
    });
    await buildTree(as(acme), { id: 'z' });
    await buildTree(as(globex), { id: 'a', name: 'globex root', children: [{ id: 'g1' }] });
    await buildTree(as(plain), { id: 'd', children: [{ id: 'd1' }] });
  });
  afterAll(() => server?.close());

  it('gives each tenant its own trees, even under the same ids', async () => {
    const query =
      '{ roots { nodes { id name } } ' +
      'node(id: "a") { name childCount children { nodes { id } } descendants { nodes { id } } descendantCount } }';
    expect((await acme(query)).body.data).toEqual({
      roots: {
        nodes: [
          { id: 'a', name: 'acme root' },
          { id: 'z', name: 'z' },
        ],
      },
      node: {
        name: 'acme root',
        childCount: 2,
        children: { nodes: [{ id: 'a1' }, { id: 'a2' }] },
        descendants: { nodes: [{ id: 'a1' }, { id: 'a2' }, { id: 'a11' }] },
        descendantCount: 3,
      },
    });
    expect((await globex(query)).body.data).toEqual({
      roots: { nodes: [{ id: 'a', name: 'globex root' }] },
      node: {
        name: 'globex root',
        childCount: 1,
        children: { nodes: [{ id: 'g1' }] },
        descendants: { nodes: [{ id: 'g1' }] },
        descendantCount: 1,
      },
    });
    expect((await plain(query)).body.data).toEqual({ roots: { nodes: [{ id: 'd', name: 'd' }] }, node: null });
  });

  it('costs no DynamoDB call of its own', async () => {
    // The same shapes in acme and in the default tenant: a node with one leaf child.
    const requests = async (gql: Gql, id: string) =>
      (await gql(`{ node(id: "${id}") { id children { nodes { id childCount } } } }`)).body.extensions?.dynamodb
        ?.requests;
    expect(await requests(acme, 'a1')).toBe(await requests(plain, 'd'));
    expect(plannedRequests(await acme('{ node(id: "a1") { id } }'))).toBe(1);
  });

  it("names a tenant's requests in the log", async () => {
    await acme('query AcmeLookup { node(id: "a") { id } }');
    await plain('query PlainLookup { node(id: "d") { id } }');
    const line = (operation: string) => lines.find((l) => l.msg === 'graphql request' && l.operation === operation);
    expect(line('AcmeLookup')).toMatchObject({ tenant: 'acme', status: 200 });
    expect(line('PlainLookup')).not.toHaveProperty('tenant');
  });

  it("never answers another tenant's ids: lookups, lists, ancestors, entities", async () => {
    expect((await globex('{ node(id: "a11") { id } z: node(id: "z") { id } }')).body.data).toEqual({
      node: null,
      z: null,
    });
    expect((await globex('{ nodes(ids: ["a1", "g1", "d1"]) { id ancestors { id } } }')).body.data).toEqual({
      nodes: [null, { id: 'g1', ancestors: [{ id: 'a' }] }, null],
    });
    expect((await acme('{ node(id: "a11") { ancestors { id name } } }')).body.data).toEqual({
      node: {
        ancestors: [
          { id: 'a', name: 'acme root' },
          { id: 'a1', name: 'a1' },
        ],
      },
    });
    const entities = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Node { id name } } }';
    const representations = ['a11', 'g1', 'd1', 'a'].map((id) => ({ __typename: 'Node', id }));
    expect((await globex(entities, { r: representations })).body.data).toEqual({
      _entities: [null, { id: 'g1', name: 'g1' }, null, { id: 'a', name: 'globex root' }],
    });
    expect((await plain(entities, { r: representations })).body.data).toEqual({
      _entities: [null, null, { id: 'd1', name: 'd1' }, null],
    });
  });

  it("refuses another tenant's cursors", async () => {
    const acmeRoots = (await acme('{ roots(first: 1) { pageInfo { endCursor } } }')).body.data.roots.pageInfo.endCursor;
    const acmeChildren = (await acme('{ node(id: "a") { children(first: 1) { pageInfo { endCursor } } } }')).body.data
      .node.children.pageInfo.endCursor;
    const plainRoots = (await plain('{ roots(first: 1) { pageInfo { endCursor } } }')).body.data.roots.pageInfo
      .endCursor;
    const roots = 'query($after: String) { roots(after: $after) { nodes { id } } }';
    const children = 'query($after: String) { node(id: "a") { children(after: $after) { nodes { id } } } }';
    expect(codes(await globex(roots, { after: acmeRoots }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await globex(children, { after: acmeChildren }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await plain(roots, { after: acmeRoots }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await acme(roots, { after: plainRoots }))).toEqual(['BAD_USER_INPUT']);
    // Each tenant's own cursor still pages.
    expect((await acme(roots, { after: acmeRoots })).body.data).toEqual({ roots: { nodes: [{ id: 'z' }] } });
  });

  it("never changes another tenant's nodes", async () => {
    expect(codes(await globex('mutation { updateNode(id: "a1", name: "taken") { id } }'))).toEqual(['NOT_FOUND']);
    expect(codes(await globex('mutation { deleteNode(id: "a11") { deletedCount } }'))).toEqual(['NOT_FOUND']);
    expect(codes(await globex('mutation { createNode(input: { parentId: "a1", name: "x" }) { id } }'))).toEqual([
      'NOT_FOUND',
    ]);
    // A move across tenants: the destination, or the moved node, does not exist for the caller.
    expect(codes(await globex('mutation { reparent(id: "g1", newParentId: "a1") { id } }'))).toEqual(['NOT_FOUND']);
    expect(codes(await globex('mutation { reparent(id: "a2", newParentId: "g1") { id } }'))).toEqual(['NOT_FOUND']);
    expect(codes(await plain('mutation { reparent(id: "d1", newParentId: "a") { id } }'))).toEqual(['NOT_FOUND']);
    // An id taken in one tenant is free in another.
    expect(
      (await globex('mutation { createNode(input: { id: "a11", parentId: "g1", name: "globex a11" }) { id depth } }'))
        .body.data,
    ).toEqual({
      createNode: { id: 'a11', depth: 2 },
    });
    expect((await acme('{ nodes(ids: ["a1", "a11", "a2"]) { name parentId } }')).body.data).toEqual({
      nodes: [
        { name: 'a1', parentId: 'a' },
        { name: 'a11', parentId: 'a1' },
        { name: 'a2', parentId: 'a' },
      ],
    });
    expect((await plain('{ node(id: "d") { children { nodes { id } } } }')).body.data).toEqual({
      node: { children: { nodes: [{ id: 'd1' }] } },
    });
  });

  it("keeps every tenant's items under its own key prefix, each tenant passing verify", async () => {
    const items = await rawItems(server);
    const tenantOf = (pk: string) => (GLOBAL_PKS.has(pk) ? 'global' : (/^T#([^#]+)#/.exec(pk)?.[1] ?? 'default'));
    const ids = (tenant: string) =>
      new Set(
        items
          .filter((item) => item.sk === 'NODE' && tenantOf(String(item.pk)) === tenant)
          .map((item) => String(item.id)),
      );
    expect([...ids('acme')].sort()).toEqual(['a', 'a1', 'a11', 'a2', 'z']);
    expect([...ids('globex')].sort()).toEqual(['a', 'a11', 'g1']);
    expect([...ids('default')].sort()).toEqual(['d', 'd1']);
    // Global: the strategy the table records (STRATEGIES).
    expect(new Set(items.map((item) => tenantOf(String(item.pk))))).toEqual(
      new Set(['acme', 'globex', 'default', 'global']),
    );
    for (const tenant of ['acme', 'globex', null]) {
      const report = await verifyTenant(server, tenant);
      expect(report.problems).toEqual([]);
    }
    expect((await verifyTenant(server, 'acme')).nodes).toBe(5);
  });

  it('refuses a tenant claim no key can hold', async () => {
    for (const tenant of ['', 'a#b', 'x'.repeat(65), 7]) {
      const before = counter.snapshot();
      const response = await server.gql(
        '{ roots { nodes { id } } }',
        {},
        { authorization: `Bearer ${await token({ tenant })}` },
      );
      expect(response.status).toBe(401);
      expect(codes(response)).toEqual(['UNAUTHENTICATED']);
      expect(response.body.errors?.[0]?.message).toMatch(/tenant claim must be a tenant name/);
      expect(counter.since(before)).toEqual({});
    }
  });
});

describe.each(STRATEGIES_UNDER_TEST)("%s: a tenant's jobs", (strategy) => {
  it("are taken over by another process's sweep when their runner stops", async () => {
    const table = uniqueTable();
    const env = { ...ENV, TRANSACTION_ITEMS: '10', JOB_LEASE_SECONDS: '1' };
    // The job's 5th transaction: its first deletion, once it claimed the subtree (3) and was accepted (1).
    const pause = pauseTransaction(5);
    const writer = await startTestServer({ strategy, table, env, middleware: pause.middleware, verifyOnClose: false });
    const other = await startTestServer({ strategy, table, env });
    try {
      const acme = await caller(writer, 'acme');
      await buildTree({ ...writer, gql: acme }, { id: 'keep', children: [fullTree('big', [3, 3])] });
      pause.arm();
      // 13 nodes do not fit a transaction of 10 items: the delete is a job, whose runner pauses
      // (the answer waits for the job's count of the subtree, which the other process makes).
      const response = acme('mutation { deleteNode(id: "big") { deletedCount job { id } } }');
      await pause.reached;
      expect((await rawItems(writer)).some((item) => item.pk === TENANTS_PK && item.sk === 'acme')).toBe(true);
      const fromOther = await caller(other, 'acme');
      await eventually(
        "the other process's sweep finishing the job",
        async () => (await fromOther('{ jobs { nodes { kind status done } } }')).body.data.jobs.nodes,
        (jobs: Array<{ status: string }>) => jobs.length === 1 && jobs[0]!.status === 'DONE',
      );
      expect((await fromOther('{ jobs { nodes { kind status done } } }')).body.data.jobs.nodes).toEqual([
        { kind: 'DELETE', status: 'DONE', done: 13 },
      ]);
      // The paused runner, released, finds its lease lost; its answer gives the count the other process made.
      pause.release();
      expect((await response).body.data.deleteNode).toMatchObject({
        deletedCount: 13,
        job: { id: expect.any(String) },
      });
      // The default tenant sees no job of acme's.
      expect((await (await caller(other, undefined))('{ jobs { nodes { id } } }')).body.data.jobs.nodes).toEqual([]);
      expect((await fromOther('{ node(id: "keep") { childCount descendants { nodes { id } } } }')).body.data).toEqual({
        node: { childCount: 0, descendants: { nodes: [] } },
      });
      // With no job open any more, the sweep takes the tenant off its list.
      await eventually(
        'the tenant off the list of tenants with open jobs',
        async () => (await rawItems(writer)).filter((item) => item.pk === TENANTS_PK).length,
        (count: number) => count === 0,
      );
      expect((await verifyTenant(other, 'acme')).problems).toEqual([]);
    } finally {
      pause.release();
      await other.close();
      await writer.close();
    }
  });
});

describe('maintenance per tenant', () => {
  it('reindexes and verifies one tenant with --tenant, leaving the others as they are', async () => {
    const server = await startTestServer({ strategy: 'adjacency', env: ENV });
    try {
      const [acme, globex] = await Promise.all([caller(server, 'acme'), caller(server, 'globex')]);
      await buildTree({ ...server, gql: acme }, fullTree('p', [2, 2]));
      await buildTree({ ...server, gql: globex }, fullTree('p', [3]));
      const tree = (...args: string[]) =>
        promisify(execFile)(process.execPath, [inject('treeScript'), ...args], {
          cwd: fileURLToPath(new URL('../../../', import.meta.url)),
          env: {
            ...process.env,
            DYNAMODB_ENDPOINT: server.config.dynamodbEndpoint,
            DYNAMODB_TABLE: server.table,
            TREE_STRATEGY: 'adjacency',
            AWS_ACCESS_KEY_ID: 'local',
            AWS_SECRET_ACCESS_KEY: 'local',
          },
        });
      const reindexed = await tree('reindex', '--to', 'closure', '--tenant', 'acme');
      expect(reindexed.stdout).toContain('7 nodes reindexed for closure');
      expect((await tree('verify', '--strategy', 'closure', '--tenant', 'acme')).stdout).toContain(
        '7 nodes checked against the truth and the closure projection: 0 problem(s)',
      );
      // globex was not reindexed: its 4 nodes lack the closure projection.
      await expect(tree('verify', '--strategy', 'closure', '--tenant', 'globex')).rejects.toMatchObject({
        code: 1,
        stdout: expect.stringContaining('4 nodes checked against the truth and the closure projection'),
      });
      expect((await verifyTenant(server, 'globex')).problems).toEqual([]);
      expect((await verifyTenant(server, null)).nodes).toBe(0);
    } finally {
      await server.close();
    }
  });
});
