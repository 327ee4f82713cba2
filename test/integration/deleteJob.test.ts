import { afterEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDynamo, type DynamoOptions } from '../../src/dynamodb/client.js';
import { scanTable } from '../../src/dynamodb/scan.js';
import { chainsOf, kindOf } from '../../src/storage/maintenance/chains.js';
import { startTestServer, STRATEGIES_UNDER_TEST, uniqueTable, type TestServer } from '../support/server.js';
import { buildTree, fullTree, okData, specIds } from '../support/tree.js';

/**
 * A delete too big for one transaction runs as a job: detach, mark level by level, delete
 * bottom-up. Here the process "dies" after its k-th transaction (every later DynamoDB write
 * fails, as if it had crashed), and the tests check what docs/design.md ("Jobs") promises at
 * that instant (no orphan, nothing reachable from a root that should be gone) and that the next process to
 * start finishes the job.
 */
const SUBTREE = fullTree('big', [3, 4, 4]); // 1 + 3 + 12 + 48 = 64 nodes: more than one transaction holds

/** Lets `allowed` TransactWriteItems through, then fails every write, like a dead process. */
function crashAfter(allowed: number): DynamoOptions['middleware'] {
  let seen = 0;
  let armed = false;
  const middleware: DynamoOptions['middleware'] = (stack) =>
    stack.add(
      (next, context) => async (args) => {
        if (armed && /^(TransactWrite|BatchWrite|Put|Update|Delete)/.test(String(context.commandName))) {
          if (seen >= allowed) throw Object.assign(new Error('simulated crash'), { name: 'SimulatedCrash' });
          seen++;
        }
        return next(args);
      },
      { step: 'initialize', name: 'simulatedCrash' },
    );
  return Object.assign(middleware!, { arm: () => (armed = true) });
}

async function tableState(table: string) {
  const { doc, client } = createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });
  try {
    const items = await scanTable(doc, table);
    const nodes = new Map(items.filter((i) => kindOf(i) === 'node').map((i) => [String(i.id), i]));
    const edges = items.filter((i) => kindOf(i) === 'edge').map((i) => String(i.id));
    return { nodes, edges, facts: chainsOf(nodes, 64), jobs: items.filter((i) => i.pk === 'JOBS') };
  } finally {
    client.destroy();
  }
}

describe.each(STRATEGIES_UNDER_TEST)('%s: a big delete interrupted by a crash', (strategy) => {
  let servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers) await server.close();
    servers = [];
  });

  it.each([1, 2, 4, 6])('leaves no orphan and nothing reachable after %i transactions, and the next start finishes it', async (allowed) => {
    const table = uniqueTable();
    const middleware = crashAfter(allowed) as DynamoOptions['middleware'] & { arm(): void };
    const dying = await startTestServer({ strategy, table, middleware, verifyOnClose: false });
    await buildTree(dying, { id: 'keep', children: [SUBTREE, { id: 'keep.sibling' }] }, null, { ordered: false });
    middleware.arm();

    const response = await dying.gql('mutation { deleteNode(id: "big") { deletedCount } }');
    expect(response.body.errors?.length, JSON.stringify(response.body)).toBeGreaterThan(0);
    await dying.close();

    // The instant of the crash: no cycle, no orphan; the subtree is either whole and in place
    // (the crash came before the first commit) or out of the tree, with a job to finish it.
    const crashed = await tableState(table);
    for (const fact of crashed.facts.values()) expect(fact.problem, fact.id).toBeUndefined();
    const big = crashed.nodes.get('big');
    expect(big?.deleting, 'the subtree root is marked for deletion').toEqual(expect.any(String));
    expect(crashed.edges).not.toContain('big');
    expect(crashed.jobs).toHaveLength(1);

    // The next process resumes the job when it starts.
    const next = await startTestServer({ strategy, table });
    servers.push(next);
    const after = await tableState(table);
    expect([...after.nodes.keys()].sort()).toEqual(['keep', 'keep.sibling']);
    expect(after.jobs).toHaveLength(0);
    expect(okData(await next.gql('{ node(id: "keep") { childCount children { nodes { id } } } }'))).toEqual({
      node: { childCount: 1, children: { nodes: [{ id: 'keep.sibling' }] } },
    });
    const gone = specIds(SUBTREE);
    expect(okData(await next.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: gone })).nodes).toEqual(
      gone.map(() => null),
    );
  });
});
