import 'reflect-metadata';
import { composeServices } from '@apollo/composition';
import {
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
  parse,
  type GraphQLArgument,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildTreeSchema, printSubgraphSdl } from '../../src/graphql/buildSchema.js';
import { renameRootFields, schemaNames } from '../../src/graphql/schemaPrefix.js';

const TREE = schemaNames('Tree');
const ROOTS = new Set(['Query', 'Mutation', 'Subscription']);

/**
 * Every type, field and argument of a schema as lines, with the names written as `rename` says
 * (for the schema without a prefix: the renaming SCHEMA_PREFIX promises, spelt out here, apart
 * from the code that does it).
 */
function lines(
  schema: GraphQLSchema,
  rename: { type: (name: string) => string; rootField: (name: string) => string },
): string[] {
  const typeName = (type: GraphQLNamedType) =>
    isSpecifiedScalarType(type) || ROOTS.has(type.name) || type.name.startsWith('__')
      ? type.name
      : rename.type(type.name);
  const typeRef = (type: GraphQLType): string =>
    String(type).replace(getNamedType(type).name, typeName(getNamedType(type)));
  return Object.values(schema.getTypeMap())
    .filter((type) => !type.name.startsWith('__') && !isSpecifiedScalarType(type))
    .flatMap((type) => {
      const name = typeName(type);
      if (!(isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))) return [`${name}`];
      return Object.values(type.getFields()).flatMap((field) => {
        const fieldName = ROOTS.has(type.name) ? rename.rootField(field.name) : field.name;
        return [
          `${name}.${fieldName}: ${typeRef(field.type)}`,
          ...('args' in field ? field.args : []).map(
            (a: GraphQLArgument) => `${name}.${fieldName}(${a.name}): ${typeRef(a.type)}`,
          ),
        ];
      });
    })
    .sort();
}

const same = { type: (name: string) => name, rootField: (name: string) => name };
const byHand = {
  type: (name: string) => (['DateTime', 'JSONObject'].includes(name) ? name : `Tree${name}`),
  rootField: (name: string) => `tree${name.charAt(0).toUpperCase()}${name.slice(1)}`,
};

describe('SCHEMA_PREFIX', () => {
  it('gives the same schema renamed: types and root fields prefixed, root types and scalars kept', () => {
    const prefixed = lines(buildTreeSchema({ names: TREE }), same);
    expect(prefixed).toEqual(lines(buildTreeSchema(), byHand));
    expect(prefixed).toContain('TreeNode.children: TreeNodeConnection!');
    expect(prefixed).toContain('Query.treeRoots: TreeNodeConnection!');
    expect(prefixed).toContain('Mutation.treeCreateNode(input): TreeCreateNodeInput!');
    expect(prefixed).toContain('TreeNode.createdAt: DateTime!');
  });

  it('names root fields both ways', () => {
    expect(['node', 'createNode', 'jobs'].map(TREE.rootField)).toEqual(['treeNode', 'treeCreateNode', 'treeJobs']);
    expect(['treeNode', 'treeCreateNode', 'nodes'].map(TREE.canonicalRootField)).toEqual([
      'node',
      'createNode',
      'nodes',
    ]);
    // Without a prefix, nothing changes.
    expect([schemaNames().type('Node'), schemaNames().rootField('roots')]).toEqual(['Node', 'roots']);
  });

  it("renames the root fields of an operation's text, its comments and layout kept", () => {
    const source = '# Roots first.\nquery Roots {\n  roots(first: 10) { nodes { id } }\n  __typename\n}\n';
    expect(renameRootFields(source, TREE)).toBe(
      '# Roots first.\nquery Roots {\n  treeRoots(first: 10) { nodes { id } }\n  __typename\n}\n',
    );
  });

  it('lets the subgraph compose beside a Relay-style one with its own Node, node, nodes, Job and jobs', () => {
    const relay = /* GraphQL */ `
      extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])
      interface Node {
        id: ID!
      }
      type PageInfo @shareable {
        hasNextPage: Boolean!
        hasPreviousPage: Boolean!
        startCursor: String
        endCursor: String
      }
      type Job implements Node @key(fields: "id") {
        id: ID!
        title: String!
      }
      type JobEdge {
        cursor: String!
        node: Job!
      }
      type JobConnection {
        edges: [JobEdge!]!
        pageInfo: PageInfo!
      }
      type Query {
        node(id: ID!): Node
        nodes(ids: [ID!]!): [Node]!
        jobs(first: Int, after: String): JobConnection!
      }
    `;
    const compose = (canopy: string) =>
      composeServices([
        { name: 'canopy', typeDefs: parse(canopy), url: 'http://canopy.invalid/graphql' },
        { name: 'relay', typeDefs: parse(relay), url: 'http://relay.invalid/graphql' },
      ]).errors?.map((error) => error.message) ?? [];
    const prefixed = printSubgraphSdl(buildTreeSchema({ federation: true, names: TREE }));
    expect(prefixed).toMatch(/type TreeNode\s+@key\(fields: "id"\)/);
    expect(compose(prefixed)).toEqual([]);
    // Without the prefix, the names meet (composition refuses, or throws on the Node interface).
    const unprefixed = () => {
      try {
        return compose(printSubgraphSdl()).join('\n');
      } catch (error) {
        return String(error);
      }
    };
    expect(unprefixed()).toMatch(/Cannot implement non-interface type Node|Node|jobs/);
  });
});
