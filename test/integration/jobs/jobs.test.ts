import { afterEach, describe, expect, inject, it } from 'vitest';
import { createDynamo } from '../../../src/dynamodb/client.js';
import { TransactionBuilder } from '../../../src/dynamodb/transactionBuilder.js';
import { transactWrite } from '../../../src/dynamodb/transactWrite.js';
import { copiesOf } from '../../../src/storage/engine/core/projectionPlans.js';
import { readStored } from '../../../src/storage/engine/core/reads.js';
import { strategyNamed } from '../../../src/storage/strategies/strategies.js';
import { planDetachForDelete } from '../../../src/storage/engine/core/writePlans.js';
import { eventually } from '../../support/eventually.js';
import { pauseWhen } from '../../support/pause.js';
import { loadInto } from '../../support/loadTree.js';
import { startTestServer, STRATEGIES_UNDER_TEST, uniqueTable, type TestServer } from '../../support/server.js';
import { buildTree, fullTree, okData, specIds } from '../../support/tree.js';

/**
 * Jobs through the API (deleteNode's job, job(id), jobs), and the lease that fences a runner:
 * a runner paused past its lease can never write again once another process took its job over.
 */
const SUBTREE = fullTree('big', [3, 4, 4]); // 64 nodes: more than one transaction holds
const SHORT_LEASE = { JOB_LEASE_SECONDS: '1' };

/**
 * Holds a delete job's first transaction that deletes node items, whatever came before it (its
 * claims and acceptance, and any of them tried again on a loaded machine).
 */
const firstDeletion = () =>
  pauseWhen((command, input) => {
    if (!command.startsWith('TransactWrite')) return false;
    const items = input.TransactItems as Array<{ Delete?: { Key: Record<string, unknown> } }>;
    // The key as the document client gives it, or marshalled.
    return items.some(({ Delete }) => Delete && JSON.stringify(Delete.Key.sk).includes('"NODE"'));
  });

const JOB_FIELDS = 'id kind status done total startedAt nodeId';

describe.each(STRATEGIES_UNDER_TEST)('%s: jobs', (strategy) => {
  let servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers) await server.close();
    servers = [];
  });

  it('answers a big delete with its finished job, which job(id) and jobs report', async () => {
    const server = await startTestServer({ strategy });
    servers.push(server);
    await loadInto(server, [{ id: 'keep', children: [SUBTREE] }]);
    const small = okData(await server.gql(`mutation { deleteNode(id: "big.0.0") { deletedCount job { id } } }`));
    expect(small).toEqual({ deleteNode: { deletedCount: 5, job: null } });

    const { deleteNode } = okData(
      await server.gql(`mutation { deleteNode(id: "big") { deletedCount job { ${JOB_FIELDS} } } }`),
    );
    expect(deleteNode).toEqual({
      deletedCount: 59,
      job: {
        id: expect.any(String),
        kind: 'DELETE',
        status: 'DONE',
        done: 59,
        total: 59,
        startedAt: expect.any(String),
        nodeId: 'big',
      },
    });
    const job = deleteNode.job;
    expect(okData(await server.gql(`query($id: ID!) { job(id: $id) { ${JOB_FIELDS} } }`, { id: job.id }))).toEqual({
      job,
    });
    expect(okData(await server.gql('{ job(id: "no-such-job") { id } }'))).toEqual({ job: null });
    const listed = okData(await server.gql(`{ jobs { nodes { ${JOB_FIELDS} } pageInfo { hasNextPage } } }`));
    expect(listed).toEqual({ jobs: { nodes: [job], pageInfo: { hasNextPage: false } } });
  });

  it('pages jobs oldest first and refuses a foreign cursor', async () => {
    // Transactions of 10 items: a delete of 7 nodes is a job.
    const server = await startTestServer({ strategy, env: { TRANSACTION_ITEMS: '10' } });
    servers.push(server);
    await buildTree(server, { id: 'a', children: [fullTree('a1', [2, 2])] }, null, { ordered: false });
    await buildTree(server, { id: 'b', children: [fullTree('b1', [2, 2])] }, null, { ordered: false });
    okData(await server.gql('mutation { deleteNode(id: "a1") { deletedCount } }'));
    okData(await server.gql('mutation { deleteNode(id: "b1") { deletedCount } }'));
    const first = okData(
      await server.gql('{ jobs(first: 1) { nodes { nodeId } pageInfo { hasNextPage endCursor } } }'),
    ).jobs;
    expect(first.nodes).toEqual([{ nodeId: 'a1' }]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = okData(
      await server.gql(
        'query($after: String) { jobs(first: 1, after: $after) { nodes { nodeId } pageInfo { hasNextPage } } }',
        {
          after: first.pageInfo.endCursor,
        },
      ),
    ).jobs;
    expect(second).toEqual({ nodes: [{ nodeId: 'b1' }], pageInfo: { hasNextPage: false } });
    // Backwards (Relay's last/before): the newest first read, the same list.
    const PAGE_INFO = 'pageInfo { hasNextPage hasPreviousPage startCursor }';
    const last = okData(await server.gql(`{ jobs(last: 1) { nodes { nodeId } ${PAGE_INFO} } }`)).jobs;
    expect(last).toMatchObject({ nodes: [{ nodeId: 'b1' }], pageInfo: { hasNextPage: false, hasPreviousPage: true } });
    const before = okData(
      await server.gql(`query($before: String) { jobs(last: 5, before: $before) { nodes { nodeId } ${PAGE_INFO} } }`, {
        before: last.pageInfo.startCursor,
      }),
    ).jobs;
    expect(before).toMatchObject({
      nodes: [{ nodeId: 'a1' }],
      pageInfo: { hasNextPage: true, hasPreviousPage: false },
    });
    const children = okData(await server.gql('{ node(id: "a") { children(first: 1) { pageInfo { endCursor } } } }'));
    const foreign = await server.gql('query($after: String) { jobs(after: $after) { nodes { id } } }', {
      after: children.node.children.pageInfo.endCursor ?? 'garbage',
    });
    expect(foreign.body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    const zero = await server.gql('{ jobs(first: 0) { nodes { id } } }');
    expect(zero.body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  });

  it('fences a runner paused past its lease: another finishes the job, it writes nothing more', async () => {
    const table = uniqueTable();
    // The job claims the subtree (its root, then 3 levels), accepts the delete (the detach), and
    // its first deletion is held.
    const pause = firstDeletion();
    const paused = await startTestServer({ strategy, table, middleware: pause.middleware, env: SHORT_LEASE });
    servers.push(paused);
    await loadInto(paused, [{ id: 'keep', children: [SUBTREE] }]);
    pause.arm();
    const answer = paused.gql(`mutation { deleteNode(id: "big") { deletedCount job { id status } } }`);
    await pause.reached;

    // Another process takes the job over once the lease expires, and finishes it.
    const other = await startTestServer({ strategy, table, env: SHORT_LEASE });
    servers.push(other);
    const job = await eventually(
      'the job done by the other process',
      async () =>
        okData(await other.gql('{ jobs { nodes { id status done total } } }')).jobs.nodes[0] as
          { id: string; status: string } | undefined,
      (found) => found?.status === 'DONE',
    );
    expect(job).toMatchObject({ status: 'DONE', done: 64, total: 64 });

    // The paused runner wakes up: its held transaction fails the fence, and it stops; the
    // answer gives the count the other process made.
    pause.release();
    expect(okData(await answer)).toEqual({ deleteNode: { deletedCount: 64, job: { id: job!.id, status: 'DONE' } } });
    const after = okData(await other.gql(`query($id: ID!) { job(id: $id) { status done } }`, { id: job!.id }));
    expect(after).toEqual({ job: { status: 'DONE', done: 64 } });
    const gone = specIds(SUBTREE);
    expect(okData(await other.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: gone })).nodes).toEqual(
      gone.map(() => null),
    );
  });

  it('hides the whole subtree from every read of another process while the delete job runs', async () => {
    const table = uniqueTable();
    // The claims, then the detach; the first deletion is held.
    const pause = firstDeletion();
    const deleting = await startTestServer({ strategy, table, middleware: pause.middleware });
    servers.push(deleting);
    await loadInto(deleting, [{ id: 'keep', children: [SUBTREE, { id: 'keep.sibling' }] }]);
    pause.arm();
    const answer = deleting.gql('mutation { deleteNode(id: "big") { deletedCount job { status } } }');
    await pause.reached;

    const reader = await startTestServer({ strategy, table });
    servers.push(reader);
    const gone = specIds(SUBTREE);
    const during = okData(
      await reader.gql(
        `query($ids: [ID!]!) {
          nodes(ids: $ids) { id }
          keep: node(id: "keep") {
            childCount children { nodes { id } } descendants(maxDepth: null, first: 1000) { nodes { id } }
          }
        }`,
        { ids: gone },
      ),
    );
    expect(during).toEqual({
      nodes: gone.map(() => null),
      keep: {
        childCount: 1,
        children: { nodes: [{ id: 'keep.sibling' }] },
        descendants: { nodes: [{ id: 'keep.sibling' }] },
      },
    });
    // To a write as to a read, the subtree is gone.
    const write = await reader.gql('mutation { reparent(id: "big.0.0", newParentId: "keep") { id } }');
    expect(write.body.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);

    pause.release();
    expect(okData(await answer)).toEqual({ deleteNode: { deletedCount: 64, job: { status: 'DONE' } } });
    expect(okData(await reader.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: gone })).nodes).toEqual(
      gone.map(() => null),
    );
  });

  it("finishes a delete left open by an earlier version's record (JOBS, DELETE#<node>)", async () => {
    const table = uniqueTable();
    const builder = await startTestServer({ strategy, table });
    await loadInto(builder, [{ id: 'keep', children: [SUBTREE] }]);
    await builder.close();
    // What an earlier version committed before it died: the root detached and marked, and its record.
    const { doc, client } = createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });
    try {
      const stored = await readStored({ doc, table, maxTreeDepth: 64 }, ['big', 'keep']);
      const tx = new TransactionBuilder(table);
      const copies = (node: Parameters<typeof copiesOf>[1]) => copiesOf(strategyNamed(strategy), node);
      planDetachForDelete(tx, { root: stored.get('big')!, parent: stored.get('keep')!, jobId: 'legacy-job', copies });
      tx.put({ pk: 'JOBS', sk: 'DELETE#big', jobId: 'legacy-job', nodeId: 'big', createdAt: new Date().toISOString() });
      await transactWrite(doc, tx.build());
    } finally {
      client.destroy();
    }

    const server = await startTestServer({ strategy, table, env: SHORT_LEASE });
    servers.push(server);
    const job = await eventually(
      'the adopted job done',
      async () => okData(await server.gql('{ job(id: "legacy-job") { kind status done nodeId } }')).job,
      (found) => found?.status === 'DONE',
    );
    expect(job).toEqual({ kind: 'DELETE', status: 'DONE', done: 64, nodeId: 'big' });
    const gone = specIds(SUBTREE);
    expect(okData(await server.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: gone })).nodes).toEqual(
      gone.map(() => null),
    );
  });
});
