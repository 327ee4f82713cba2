import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDynamo } from '../../../src/dynamodb/client.js';
import { untilJobsDone } from '../../support/deleteJobTable.js';
import { startTestServer, STRATEGIES_UNDER_TEST, uniqueTable, type TestServer } from '../../support/server.js';
import { expectError, fullTree, okData, specIds } from '../../support/tree.js';
import { pauses, pauseTransaction } from '../../support/pause.js';
import { getItem } from '../../../src/dynamodb/batchGet.js';
import { changeKey, headKey } from '../../../src/storage/engine/changes/changeRecord.js';
import { giveUpNumber } from '../../../src/storage/engine/changes/recordChanges.js';
import { loadInto } from '../../support/loadTree.js';

/**
 * A delete too big for one transaction runs as a job: it claims the subtree level by level, its
 * accepting transaction detaches the subtree, then it deletes bottom-up. Here: writes that race
 * its claims (a move read before the job started, a child added and a rename committed while it
 * claims) and a change number given up in flight. A process dying at each step of it:
 * deleteCrash.test.ts, in the long suite.
 */
const SUBTREE = fullTree('big', [3, 4, 4]); // 1 + 3 + 12 + 48 = 64 nodes: more than one transaction holds

describe.each(STRATEGIES_UNDER_TEST)('%s: a move read before a delete job started', (strategy) => {
  let servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers) await server.close();
    servers = [];
  });

  it('cannot take a node out of the subtree being deleted: it plans again and finds the node gone', async () => {
    // The move reads its node before the delete job's first transaction, and commits once the
    // job claimed the subtree: the claim on the node fails it at commit; read again, the node
    // is claimed, and the move waits for the job, then finds the node gone. Nothing of the
    // tenant's, nor of the tree's, is named by either.
    const table = uniqueTable();
    const deleting = pauseTransaction(5); // the job's accepting transaction: the subtree is claimed
    const moving = pauseTransaction(1); // the move's transaction
    const deleter = await startTestServer({ strategy, table, middleware: deleting.middleware });
    const mover = await startTestServer({ strategy, table, middleware: moving.middleware, verifyOnClose: false });
    servers = [deleter, mover];
    await loadInto(deleter, [{ id: 'keep', children: [SUBTREE, { id: 'keep.sibling' }] }]);

    moving.arm();
    const moved = mover.gql('mutation { reparent(id: "big.0.0", newParentId: "keep.sibling") { id } }');
    await moving.reached;
    deleting.arm();
    const deleted = deleter.gql('mutation { deleteNode(id: "big") { deletedCount } }');
    await deleting.reached;
    moving.release();
    // Claimed before it was accepted, the node fails the move at commit, whenever the move
    // commits; read again, it is claimed, and the move waits for the job, which goes on.
    deleting.release();
    expectError(await moved, 'NOT_FOUND', { message: 'node "big.0.0" does not exist', details: { id: 'big.0.0' } });
    expect(okData(await deleted).deleteNode).toEqual({ deletedCount: specIds(SUBTREE).length });
    await untilJobsDone(table);
    const left = okData(await deleter.gql('{ node(id: "keep") { childCount children { nodes { id childCount } } } }'));
    expect(left.node).toEqual({ childCount: 1, children: { nodes: [{ id: 'keep.sibling', childCount: 0 }] } });
  });
});

/**
 * Writes around a delete job's claims (docs/design.md, "Claims"): a node is claimed only as it
 * was read, so a child added under a node read as a leaf, or a rename committed between a node's
 * read and its claim, makes the level read again; a claimed node takes no rename. What the job
 * keeps to be restored is then the subtree as it was when claimed, whole.
 */
describe.each(STRATEGIES_UNDER_TEST)('%s: writes while a delete job claims its subtree', (strategy) => {
  let server: TestServer;
  let renamer: TestServer;
  const held = pauses();
  const renaming = pauses();
  let table: string;

  beforeAll(async () => {
    table = uniqueTable();
    server = await startTestServer({ strategy, table, middleware: held.middleware });
    renamer = await startTestServer({ strategy, table, middleware: renaming.middleware });
  });
  afterAll(async () => {
    await renamer?.close();
    await server?.close();
  });

  /** The next transaction that names node `id` (a claim of its level, when a delete job runs). */
  const transactionNaming = (id: string) =>
    held.next((command, input) => command.startsWith('TransactWrite') && JSON.stringify(input).includes(`"N#${id}"`));
  const rename = (on: TestServer, id: string, name: string) =>
    on.gql('mutation($id: ID!, $name: String!) { updateNode(id: $id, name: $name) { name } }', { id, name });
  const restored = async (id: string) =>
    okData(await server.gql('mutation($id: ID!) { restoreNode(id: $id) { id } }', { id })).restoreNode;

  it('claims a child added, and keeps a rename committed, under a node read as a leaf before its claim', async () => {
    await loadInto(server, [{ id: 'k1', children: [fullTree('c1', [3, 4, 4])] }]);
    // The leaves are read; their claim is held: a create under one, a rename of another commit.
    const leaves = transactionNaming('c1.0.0.0');
    const deleted = server.gql('mutation { deleteNode(id: "c1") { deletedCount } }');
    await leaves.reached;
    okData(
      await server.gql('mutation { createNode(input: { id: "c1.late", name: "late", parentId: "c1.0.0.0" }) { id } }'),
    );
    okData(await rename(server, 'c1.0.0.1', 'renamed'));
    leaves.release();

    expect(okData(await deleted).deleteNode).toEqual({ deletedCount: 65 });
    await untilJobsDone(table);
    expect(await restored('c1')).toEqual({ id: 'c1' });
    const back = okData(await server.gql('{ nodes(ids: ["c1.late", "c1.0.0.1"]) { id name parentId } }'));
    expect(back.nodes).toEqual([
      { id: 'c1.late', name: 'late', parentId: 'c1.0.0.0' },
      { id: 'c1.0.0.1', name: 'renamed', parentId: 'c1.0.0' },
    ]);
  });

  it('makes a rename read before a claim and committed after it wait for the job, then NOT_FOUND', async () => {
    await loadInto(server, [{ id: 'k2', children: [fullTree('c2', [3, 4, 4])] }]);
    const renameCommit = renaming.next((command) => command.startsWith('TransactWrite'));
    const renamed = rename(renamer, 'c2.0', 'too late');
    await renameCommit.reached;
    // c2.0 is claimed with the first level below the root; the job is held at the leaves.
    const leaves = transactionNaming('c2.0.0.0');
    const deleted = server.gql('mutation { deleteNode(id: "c2") { deletedCount } }');
    await leaves.reached;
    renameCommit.release();
    leaves.release();

    expectError(await renamed, 'NOT_FOUND', { message: 'node "c2.0" does not exist', details: { id: 'c2.0' } });
    expect(okData(await deleted).deleteNode).toEqual({ deletedCount: 64 });
    await untilJobsDone(table);
    expect(await restored('c2')).toEqual({ id: 'c2' });
    expect(okData(await server.gql('{ node(id: "c2.0") { name } }')).node).toEqual({ name: 'c2.0' });
  });
});

/**
 * A write whose change number a reader gave up while it was in flight commits again with the
 * next number (changes/recordChanges.ts), its own transaction only: not a re-plan, and for a
 * delete job's acceptance, not its claims given back and taken again.
 */
describe.each(STRATEGIES_UNDER_TEST)('%s: a write whose change number was given up in flight', (strategy) => {
  let server: TestServer;
  const held = pauses();
  const { doc, client } = createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });

  beforeAll(async () => {
    server = await startTestServer({ strategy, middleware: held.middleware });
  });
  afterAll(async () => {
    await server?.close();
    client.destroy();
  });

  const head = async (rootId: string) => Number((await getItem(doc, server.table, headKey(rootId)))?.seq);
  /** Holds the next commit of a change of `kind`, gives its number up as a reader would, lets it go. */
  async function givenUpInFlight<T>(rootId: string, kind: string, write: () => Promise<T>): Promise<T> {
    const commit = held.next(
      (command, input) => command.startsWith('TransactWrite') && JSON.stringify(input).includes(`"${kind}"`),
    );
    const written = write();
    await commit.reached;
    const seq = await head(rootId);
    expect(await giveUpNumber({ doc, table: server.table, changeRetentionMs: 3_600_000 }, rootId, seq)).toBe(true);
    commit.release();
    await written;
    // The next number holds the change: its attempt with the old number was not sent again.
    expect((await getItem(doc, server.table, changeKey(rootId, seq + 1)))?.kind).toBe(kind);
    return written;
  }

  it('renames with the next number', async () => {
    await loadInto(server, [{ id: 'r1', children: [{ id: 'r1.a' }] }]);
    const renamed = await givenUpInFlight('r1', 'UPDATED', () =>
      server.gql('mutation { updateNode(id: "r1.a", name: "b") { name } }'),
    );
    expect(okData(renamed).updateNode).toEqual({ name: 'b' });
  });

  it('accepts a delete job with the next number, its claims kept', async () => {
    await loadInto(server, [{ id: 'r2', children: [fullTree('d2', [3, 4, 4])] }]);
    const deleted = await givenUpInFlight('r2', 'DELETED', () =>
      server.gql('mutation { deleteNode(id: "d2") { deletedCount } }'),
    );
    expect(okData(deleted).deleteNode).toEqual({ deletedCount: 64 });
  });
});
