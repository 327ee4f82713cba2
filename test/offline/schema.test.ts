import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import {
  buildSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLObjectType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildTreeSchema, CATALOG_TYPES, printTreeSchema, printTypedSchema } from '../../src/graphql/buildSchema.js';
import { loadNodeTypes, RESERVED } from '../../src/nodeTypes/loadNodeTypes.js';

/**
 * The core schema of the public contract (docs/contract.md), verbatim. Names may be added to it; none may
 * be renamed, dropped or retyped, and no default may change.
 */
const CORE_SDL = /* GraphQL */ `
  scalar DateTime
  scalar JSONObject

  type Node {
    id: ID!
    name: String!
    parentId: ID
    parent: Node
    rootId: ID!
    depth: Int!
    position: String!
    childCount: Int!
    data: JSONObject
    version: Int!
    createdAt: DateTime!
    updatedAt: DateTime!
    children(first: Int = 100, after: String): NodeConnection!
    ancestors: [Node!]!
    descendants(minDepth: Int = 1, maxDepth: Int, first: Int = 100, after: String): NodeConnection!
  }

  type NodeConnection {
    edges: [NodeEdge!]!
    nodes: [Node!]!
    pageInfo: PageInfo!
  }
  type NodeEdge { cursor: String!  node: Node! }
  type PageInfo { hasNextPage: Boolean!  endCursor: String }

  type Query {
    node(id: ID!): Node
    nodes(ids: [ID!]!): [Node]!
    roots(first: Int = 100, after: String): NodeConnection!
  }

  input CreateNodeInput {
    id: ID
    parentId: ID
    name: String!
    data: JSONObject
    before: ID
    after: ID
  }

  type DeleteResult { deletedCount: Int! }

  type Mutation {
    createNode(input: CreateNodeInput!): Node!
    updateNode(id: ID!, name: String, data: JSONObject, expectedVersion: Int): Node!
    reparent(id: ID!, newParentId: ID, before: ID, after: ID, expectedVersion: Int): Node!
    deleteNode(id: ID!, expectedVersion: Int): DeleteResult!
  }
`;

const committed = readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8');
const generated = printTreeSchema();

type Described = GraphQLField<unknown, unknown> | GraphQLInputField | GraphQLArgument;

/** "Type.field(arg): T = default" lines: one per type, field and argument of `type`. */
function describeType(type: GraphQLNamedType): string[] {
  const line = (path: string, member: Described) => {
    const fallback =
      'defaultValue' in member && member.defaultValue !== undefined ? ` = ${JSON.stringify(member.defaultValue)}` : '';
    return `${path}: ${String(member.type)}${fallback}`;
  };
  if (isScalarType(type)) return [`scalar ${type.name}`];
  if (isObjectType(type) || isInterfaceType(type)) {
    return [
      `type ${type.name}`,
      ...Object.values(type.getFields()).flatMap((field) => [
        line(`${type.name}.${field.name}`, field),
        ...field.args.map((arg) => line(`${type.name}.${field.name}(${arg.name})`, arg)),
      ]),
    ];
  }
  if (isInputObjectType(type)) {
    return [
      `input ${type.name}`,
      ...Object.values(type.getFields()).map((field) => line(`${type.name}.${field.name}`, field)),
    ];
  }
  return [`${type.toString()}`];
}

describe('the names node types may not take', () => {
  it('are every field of Node and every type of the schema, typed or not', () => {
    const untyped = buildTreeSchema();
    const node = untyped.getType('Node') as GraphQLObjectType;
    expect([...RESERVED.fields].sort()).toEqual(Object.keys(node.getFields()).sort());
    const typed = buildTreeSchema({ nodeTypes: loadNodeTypes(CATALOG_TYPES) });
    const own = new Set([
      'Category',
      'Product',
      'ProductStatus',
      'ProductStatusFilter',
      'CategoryInput',
      'CategoryPatch',
      'ProductInput',
      'ProductPatch',
    ]);
    const schemaTypes = Object.keys(typed.getTypeMap()).filter((name) => !name.startsWith('__') && !own.has(name));
    expect(schemaTypes.filter((name) => !RESERVED.types.has(name))).toEqual([]);
  });
});

describe('schema/catalog.schema.graphql', () => {
  it('is the schema under NODE_TYPES=schema/catalog.graphql, as the code builds it', () => {
    const typed = readFileSync(new URL('../../schema/catalog.schema.graphql', import.meta.url), 'utf8');
    expect(printTypedSchema(), 'schema/catalog.schema.graphql is out of date: run `npm run schema`').toBe(typed);
  });
});

describe('schema/schema.graphql', () => {
  it('is the schema the code builds (run `npm run schema` after changing the GraphQL types)', () => {
    expect(generated, 'schema/schema.graphql is out of date: run `npm run schema`').toBe(committed);
  });

  it("holds every type, field and argument of the contract's core schema, with its type and default", () => {
    const core = buildSchema(CORE_SDL);
    const actual = buildSchema(committed);
    const expected = Object.values(core.getTypeMap())
      .filter((type) => !type.name.startsWith('__') && !['String', 'Int', 'Boolean', 'ID', 'Float'].includes(type.name))
      .flatMap(describeType);
    const present = new Set(Object.values(actual.getTypeMap()).flatMap(describeType));
    expect(expected.length).toBeGreaterThan(50);
    expect(expected.filter((line) => !present.has(line))).toEqual([]);
  });

  it("holds the contract's job additions: Job, its enums, job(id) and jobs", () => {
    const additions = buildSchema(`
      scalar DateTime
      enum JobKind { MOVE DELETE REINDEX IMPORT }
      enum JobStatus { RUNNING DONE FAILED }
      type Job { id: ID!  kind: JobKind!  status: JobStatus!  done: Int!  total: Int  startedAt: DateTime!  nodeId: ID }
      type PageInfo { hasNextPage: Boolean!  endCursor: String }
      type JobEdge { cursor: String!  node: Job! }
      type JobConnection { edges: [JobEdge!]!  nodes: [Job!]!  pageInfo: PageInfo! }
      type Query { job(id: ID!): Job  jobs(first: Int = 100, after: String): JobConnection! }
    `);
    const present = new Set(Object.values(buildSchema(committed).getTypeMap()).flatMap(describeType));
    const expected = Object.values(additions.getTypeMap())
      .filter((type) => !type.name.startsWith('__') && !['String', 'Int', 'Boolean', 'ID', 'Float'].includes(type.name))
      .flatMap(describeType);
    expect(expected.filter((line) => !present.has(line))).toEqual([]);
  });

  it('adds no required argument or required input field beyond the core schema', () => {
    const core = buildSchema(CORE_SDL);
    const actual = buildSchema(committed);
    const required: string[] = [];
    for (const type of Object.values(actual.getTypeMap())) {
      const coreType = core.getType(type.name);
      if ((isObjectType(type) || isInterfaceType(type)) && (isObjectType(coreType) || isInterfaceType(coreType))) {
        for (const field of Object.values(type.getFields())) {
          // A new field may require its arguments: no client sends it yet.
          const coreField = coreType.getFields()[field.name];
          if (!coreField) continue;
          const coreArgs = new Set(coreField.args.map((a) => a.name));
          for (const arg of field.args) {
            if (!coreArgs.has(arg.name) && String(arg.type).endsWith('!') && arg.defaultValue === undefined) {
              required.push(`${type.name}.${field.name}(${arg.name})`);
            }
          }
        }
      }
      if (isInputObjectType(type) && isInputObjectType(coreType)) {
        for (const field of Object.values(type.getFields())) {
          if (
            !coreType.getFields()[field.name] &&
            String(field.type).endsWith('!') &&
            field.defaultValue === undefined
          ) {
            required.push(`${type.name}.${field.name}`);
          }
        }
      }
    }
    expect(required).toEqual([]);
  });

  it('describes every type, field, argument, input field and enum value (the Docs pane of GraphiQL)', () => {
    const builtIn = ['String', 'Int', 'Boolean', 'ID', 'Float'];
    const missing: string[] = [];
    const need = (path: string, description: string | null | undefined) => {
      if (!description?.trim()) missing.push(path);
    };
    for (const schema of [buildTreeSchema(), buildTreeSchema({ federation: true })]) {
      for (const type of Object.values(schema.getTypeMap())) {
        // Built-in types, and the federation specification's own (_Service, _Any, link__Purpose).
        if (type.name.startsWith('_') || builtIn.includes(type.name) || type.name.includes('__')) continue;
        need(type.name, type.description);
        if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
          for (const field of Object.values(type.getFields())) {
            if (field.name.startsWith('_')) continue; // _service, _entities
            need(`${type.name}.${field.name}`, field.description);
            for (const arg of 'args' in field ? field.args : [])
              need(`${type.name}.${field.name}(${arg.name})`, arg.description);
          }
        }
        if (isEnumType(type))
          for (const value of type.getValues()) need(`${type.name}.${value.name}`, value.description);
      }
    }
    expect([...new Set(missing)]).toEqual([]);
  });
});
