/**
 * RELAY_NODE: the schema's shape (Relay's `interface Node`, `node`, `nodes`, the IDs made
 * global), and the federation subgraph composed with `@apollo/composition` beside a Relay-style
 * subgraph that owns the supergraph's `node` and `nodes`.
 */
import 'reflect-metadata';
import { composeServices } from '@apollo/composition';
import {
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  parse,
  printType,
  type GraphQLArgument,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildTreeSchema, printSubgraphSdl } from '../../src/graphql/buildSchema.js';
import { nodeIdPositions } from '../../src/graphql/relayNode.js';
import { schemaNames } from '../../src/graphql/schemaPrefix.js';
import { RELAY_SUBGRAPH_SDL } from '../support/relaySubgraph.js';

const TREE = schemaNames('Tree');
const relay = buildTreeSchema({ names: TREE, relayNode: true });
const subgraph = buildTreeSchema({ names: TREE, relayNode: true, federation: true });

/** Every type (and what it implements), field, argument and input field of a schema, as lines. */
function lines(schema: GraphQLSchema): string[] {
  const own = (type: GraphQLNamedType) => !type.name.startsWith('_') && !type.name.includes('__');
  const fieldLines = (type: GraphQLNamedType) =>
    isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)
      ? Object.values(type.getFields()).flatMap((field) => [
          `${type.name}.${field.name}: ${String(field.type)}`,
          ...('args' in field ? field.args : []).map(
            (arg: GraphQLArgument) => `${type.name}.${field.name}(${arg.name}): ${String(arg.type)}`,
          ),
        ])
      : [];
  return Object.values(schema.getTypeMap())
    .filter(own)
    .flatMap((type) => [
      isObjectType(type) && type.getInterfaces().length > 0
        ? `${type.name} implements ${type.getInterfaces().join(' & ')}`
        : type.name,
      ...fieldLines(type),
    ])
    .filter((line) => !line.startsWith('Query._') && !line.startsWith('link__'))
    .sort();
}

/** Every field, argument and input field of type ID (or a list of IDs), as positions. */
function idPositions(schema: GraphQLSchema): string[] {
  return lines(schema)
    .filter((line) => /: \[?ID!?\]?!?$/.test(line))
    .map((line) => line.slice(0, line.indexOf(':')));
}

describe('RELAY_NODE=true (with SCHEMA_PREFIX=Tree)', () => {
  it("adds Relay's interface Node, implemented by TreeNode, and its node and nodes, to the same schema", () => {
    expect(printType(relay.getType('Node')!)).toBe(
      '"""\nRelay\'s global object identification: an object with a global id, which `node(id:)` refetches ' +
        'wherever the object is served.\n"""\ninterface Node {\n' +
        '  """The global id: opaque, and unique across types."""\n  id: ID!\n}',
    );
    expect(String(relay.getType('TreeNode'))).toBe('TreeNode');
    expect(relay.getImplementations(relay.getType('Node') as never).objects.map(String)).toEqual(['TreeNode']);
    const added = [
      'Node',
      'Node.id: ID!',
      'TreeNode implements Node',
      'Query.node(id): ID!',
      'Query.node: Node',
      'Query.nodes(ids): [ID!]!',
      'Query.nodes: [Node]!',
    ];
    const prefixed = lines(buildTreeSchema({ names: TREE })).filter((line) => line !== 'TreeNode');
    expect(lines(relay)).toEqual([...prefixed, ...added].sort());
  });

  it('makes every ID global but those of jobs and changes, read leniently by node and nodes only', () => {
    // A new ID of the schema fails this test: relayNode.ts's nodeIdPositions says whether it names a node.
    expect(idPositions(relay)).toEqual([
      'Mutation.treeDeleteNode(expectedParentId)',
      'Mutation.treeDeleteNode(id)',
      'Mutation.treeGrantAccess(nodeId)',
      'Mutation.treeReparent(after)',
      'Mutation.treeReparent(before)',
      'Mutation.treeReparent(expectedParentId)',
      'Mutation.treeReparent(id)',
      'Mutation.treeReparent(newParentId)',
      'Mutation.treeRestoreNode(id)',
      'Mutation.treeRestoreNode(newParentId)',
      'Mutation.treeRevokeAccess(nodeId)',
      'Mutation.treeUndo(changeId)',
      'Mutation.treeUpdateNode(id)',
      'Node.id',
      'Query.node(id)',
      'Query.nodes(ids)',
      'Query.treeJob(id)',
      'Query.treeNode(id)',
      'Query.treeNodes(ids)',
      'Query.treeTreeHistory(rootId)',
      'Subscription.treeTreeChanges(nodeId)',
      'TreeCopySubtreeInput.after',
      'TreeCopySubtreeInput.before',
      'TreeCopySubtreeInput.id',
      'TreeCopySubtreeInput.newParentId',
      'TreeCreateNodeInput.after',
      'TreeCreateNodeInput.before',
      'TreeCreateNodeInput.id',
      'TreeCreateNodeInput.parentId',
      'TreeCreateNodesInput.parentId',
      'TreeGrant.nodeId',
      'TreeJob.id',
      'TreeJob.nodeId',
      'TreeNewNodeInput.id',
      'TreeNewNodeInput.parentId',
      'TreeNode.id',
      'TreeNode.parentId',
      'TreeNode.rootId',
      'TreeTreeChange.id',
      'TreeTreeChange.newParentId',
      'TreeTreeChange.nodeId',
      'TreeTreeChange.oldParentId',
    ]);
    const positions = nodeIdPositions(TREE);
    expect([...positions.raw].sort()).toEqual([
      'Mutation.treeUndo(changeId)',
      'Query.treeJob(id)',
      'TreeJob.id',
      'TreeTreeChange.id',
    ]);
    expect([...positions.lenient].sort()).toEqual(['Query.node(id)', 'Query.nodes(ids)']);
    expect([...positions.blankIsRoot].sort()).toEqual([
      'Mutation.treeDeleteNode(expectedParentId)',
      'Mutation.treeReparent(expectedParentId)',
    ]);
  });

  it('leaves node and nodes out of the federation subgraph, where TreeNode is the entity keyed by global id', () => {
    const sdl = printSubgraphSdl(subgraph);
    expect(sdl).toMatch(/type TreeNode implements Node\s+@key\(fields: "id"\)/);
    expect(sdl).toMatch(/interface Node \{/);
    const fields = Object.keys(subgraph.getQueryType()!.getFields());
    expect(fields).not.toContain('node');
    expect(fields).not.toContain('nodes');
    expect(fields).toContain('treeNode');
  });

  it('is refused without SCHEMA_PREFIX: Node is the interface', () => {
    expect(() => buildTreeSchema({ relayNode: true })).toThrow(/RELAY_NODE needs SCHEMA_PREFIX/);
  });
});

const compose = (canopy: string) =>
  composeServices([
    { name: 'canopy', typeDefs: parse(canopy), url: 'http://canopy.invalid/graphql' },
    { name: 'relay', typeDefs: parse(RELAY_SUBGRAPH_SDL), url: 'http://relay.invalid/graphql' },
  ]);

describe('the RELAY_NODE subgraph beside a Relay-style one', () => {
  it('composes: one interface Node of both, node and nodes from the Relay subgraph', () => {
    const result = compose(printSubgraphSdl(subgraph));
    expect(result.errors?.map((error) => error.message) ?? []).toEqual([]);
    const supergraph = result.schema!.toAPISchema().toGraphQLJSSchema();
    const node = supergraph.getType('Node');
    expect(isInterfaceType(node)).toBe(true);
    expect(
      supergraph
        .getPossibleTypes(node as never)
        .map(String)
        .sort(),
    ).toEqual(['TreeNode', 'User']);
    expect(String(supergraph.getQueryType()!.getFields().node!.type)).toBe('Node');
    // The tree's own fields are Canopy's: the planner fetches them from it by the global id.
    expect(Object.keys((supergraph.getType('TreeNode') as never as { getFields(): object }).getFields())).toContain(
      'ancestors',
    );
  });

  it('would not compose with node and nodes in Canopy too (what leaving them out of the subgraph avoids)', () => {
    const withRootFields = printSubgraphSdl(subgraph).replace(
      /type Query \{/,
      'type Query {\n  node(id: ID!): Node\n  nodes(ids: [ID!]!): [Node]!',
    );
    const messages = compose(withRootFields).errors?.map((error) => error.message) ?? [];
    expect(messages.join('\n')).toMatch(/Non-shareable field "Query\.node"/);
  });
});
