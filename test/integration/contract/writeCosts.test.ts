import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractCostsOf } from '../../support/contractCosts.js';
import {
  plannedRequests,
  startTestServer,
  STRATEGIES_UNDER_TEST,
  type GraphQLResponse,
  type TestServer,
} from '../../support/server.js';
import { buildChain, createNode, okData } from '../../support/tree.js';
import type { WriteKind } from '../../../src/storage/contractCosts.js';

/**
 * What each kind of write costs, exactly, under each strategy (`contractCosts.ts`, `writes`):
 * requests, items written and the write units AWS would bill (`awsWriteUnits`), for a node at
 * depth 1 and at depth 5 carrying 200 bytes of data.
 */

const DATA = { text: 'd'.repeat(186) };
const OTHER_DATA = { text: 'e'.repeat(186) };
const DEPTHS = [1, 5] as const;

type Cost = { requests: number; itemsWritten: number; awsWriteUnits: number };

/** Requests as planned: a read slow enough to be made again (`repeatedRequests`) is left out. */
const costOf = (response: GraphQLResponse): Cost => {
  const { itemsWritten, awsWriteUnits } = response.body.extensions!.dynamodb!;
  return { requests: plannedRequests(response), itemsWritten, awsWriteUnits };
};

describe.each(STRATEGIES_UNDER_TEST)('%s: the cost of each write', (strategy) => {
  let server: TestServer;
  const declared = contractCostsOf(strategy).writes;
  /** Per depth: the parent of the nodes written, and where moves go (another tree's root at depth 1). */
  const places = new Map<number, { parent: string; elsewhere: string; leaves: string[] }>();

  beforeAll(async () => {
    server = await startTestServer({ strategy });
    for (const depth of DEPTHS) {
      const chain = await buildChain(server, `w${depth}`, depth);
      const parent = chain.at(-1)!;
      const elsewhere =
        depth === 1
          ? (await createNode(server, { id: 'w1-other', parentId: null })).id
          : (await createNode(server, { id: `w${depth}-other`, parentId: chain.at(-2)! })).id;
      const leaves: string[] = [];
      for (const leaf of ['a', 'b', 'c', 'd', 'e']) {
        const id = `w${depth}-${leaf}`;
        await createNode(server, { id, parentId: parent, data: DATA });
        leaves.push(id);
      }
      places.set(depth, { parent, elsewhere, leaves });
    }
  }, 120_000);
  afterAll(() => server?.close());

  const operations: Record<WriteKind, (depth: number) => Promise<GraphQLResponse>> = {
    create: (depth) =>
      server.gql('mutation ($input: CreateNodeInput!) { createNode(input: $input) { id depth } }', {
        input: { id: `w${depth}-new`, name: 'new', parentId: places.get(depth)!.parent, data: DATA },
      }),
    rename: (depth) =>
      server.gql('mutation ($id: ID!) { updateNode(id: $id, name: "renamed") { id } }', leaf(depth, 0)),
    data: (depth) =>
      server.gql('mutation ($id: ID!, $data: JSONObject) { updateNode(id: $id, data: $data) { id } }', {
        ...leaf(depth, 1),
        data: OTHER_DATA,
      }),
    move: (depth) =>
      server.gql('mutation ($id: ID!, $to: ID) { reparent(id: $id, newParentId: $to) { id depth } }', {
        ...leaf(depth, 2),
        to: places.get(depth)!.elsewhere,
      }),
    reorder: (depth) =>
      server.gql(
        'mutation ($id: ID!, $to: ID, $before: ID) { reparent(id: $id, newParentId: $to, before: $before) { id } }',
        {
          ...leaf(depth, 3),
          to: places.get(depth)!.parent,
          before: places.get(depth)!.leaves[0],
        },
      ),
    delete: (depth) => server.gql('mutation ($id: ID!) { deleteNode(id: $id) { deletedCount } }', leaf(depth, 4)),
  };
  const leaf = (depth: number, i: number) => ({ id: places.get(depth)!.leaves[i]! });

  for (const depth of DEPTHS) {
    for (const kind of Object.keys(operations) as WriteKind[]) {
      it(`${kind} at depth ${depth}`, async () => {
        const response = await operations[kind](depth);
        okData(response);
        expect(costOf(response)).toEqual(declared[kind](depth));
      });
    }
  }
});
