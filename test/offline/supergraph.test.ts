/**
 * The supergraph of examples/supergraph/, composed with `@apollo/composition` (what Apollo's
 * gateway and router compose with): Canopy's subgraph beside a Relay-style `builds` subgraph
 * (its own Node, node, nodes, Job and jobs), a `catalogue` and `accounts` that reference and
 * extend the tree node. Under SCHEMA_PREFIX=Tree it composes; without, composition refuses it
 * with the errors a platform team would meet.
 */
import 'reflect-metadata';
import { composeServices } from '@apollo/composition';
import { isInterfaceType, isObjectType, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { neighbours } from '../../examples/supergraph/neighbours.js';
import { buildTreeSchema, printSubgraphSdl } from '../../src/graphql/buildSchema.js';
import { schemaNames } from '../../src/graphql/schemaPrefix.js';

const NEIGHBOURS = neighbours().map(({ name, typeDefs }) => ({
  name,
  typeDefs,
  url: `http://${name}.invalid/graphql`,
}));

const compose = (canopy: string) =>
  composeServices([{ name: 'canopy', typeDefs: parse(canopy), url: 'http://canopy.invalid/graphql' }, ...NEIGHBOURS]);

describe('the supergraph of examples/supergraph', () => {
  it('composes Canopy under SCHEMA_PREFIX=Tree with builds, catalogue and accounts', () => {
    const result = compose(printSubgraphSdl(buildTreeSchema({ federation: true, names: schemaNames('Tree') })));
    expect(result.errors?.map((error) => error.message)).toBeUndefined();
    expect(result.hints?.map(String)).toEqual([]);
    const api = result.schema!.toAPISchema().toGraphQLJSSchema();
    // Each subgraph's root fields, side by side.
    expect(Object.keys(api.getQueryType()!.getFields()).sort()).toEqual([
      'jobs',
      'me',
      'node',
      'nodes',
      'pipelines',
      'product',
      'products',
      'treeDeletedNodes',
      'treeJob',
      'treeJobs',
      'treeNode',
      'treeNodes',
      'treeRoots',
      'treeSharedWithMe',
      'treeTreeHistory',
      'user',
    ]);
    // Relay's Node is the builds service's interface; the tree node is an entity of its own,
    // with the catalogue's field beside Canopy's.
    const node = api.getType('Node');
    expect(isInterfaceType(node) && api.getPossibleTypes(node).map(String).sort()).toEqual(['Job', 'Pipeline']);
    const treeNode = api.getType('TreeNode');
    expect(isObjectType(treeNode) && Object.keys(treeNode.getFields())).toEqual(
      expect.arrayContaining(['ancestors', 'children', 'name', 'products']),
    );
  });

  it('refuses Canopy without the prefix: Node, node, nodes, jobs and Job meet their namesakes', () => {
    const errors = compose(printSubgraphSdl()).errors ?? [];
    // Each error as its code and the element it names.
    expect(errors.map((error) => `${String(error.extensions.code)} ${/"([^"]+)"/.exec(error.message)?.[1]}`)).toEqual([
      'TYPE_KIND_MISMATCH Node',
      'INVALID_FIELD_SHARING Query.node',
      'INVALID_FIELD_SHARING Query.nodes',
      'FIELD_ARGUMENT_DEFAULT_MISMATCH Query.jobs(first:)',
      'INVALID_FIELD_SHARING Query.jobs',
      'INVALID_FIELD_SHARING Job.id',
      'FIELD_TYPE_MISMATCH Job.status',
      'INVALID_FIELD_SHARING Job.status',
      'INVALID_FIELD_SHARING JobEdge.cursor',
      'INVALID_FIELD_SHARING JobEdge.node',
      'INVALID_FIELD_SHARING JobConnection.edges',
      'INVALID_FIELD_SHARING JobConnection.pageInfo',
    ]);
    expect(errors[0]!.message).toBe(
      'Type "Node" has mismatched kind: it is defined as Interface Type in subgraph "builds" ' +
        'but Object Type in subgraph "canopy"',
    );
    expect(errors[1]!.message).toBe(
      'Non-shareable field "Query.node" is resolved from multiple subgraphs: it is resolved from subgraphs ' +
        '"builds" and "canopy" and defined as non-shareable in all of them',
    );
  });
});
