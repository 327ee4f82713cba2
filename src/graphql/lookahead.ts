import {
  getArgumentValues,
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isInterfaceType,
  isObjectType,
  Kind,
  OperationTypeNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  visit,
} from 'graphql';
import { OPTIONAL_FIELDS, type LeftOut } from '../storage/treeStore.js';
import { DEFAULT_PAGE_SIZE } from '../storage/validation.js';

/** The page size `children` takes when the query gives none (PageArgs). */

/**
 * Lookahead: the page sizes that the operation asks of `children` below the `children` field
 * being resolved, level by level: level 0 holds the `first` of every `children` field selected
 * on the nodes of this page (through `nodes` or `edges { node }`), level 1 those selected on
 * their nodes, and so on. Aliases asking for several sizes give several; fragments, inline
 * fragments and @skip/@include are honoured as execution honours them. It stops at a level
 * where a `children` field has an `after`, a `before` or a `last` (a page of its own, read per
 * parent).
 */
export function nestedChildren(info: GraphQLResolveInfo): number[][] {
  // The node type whose `children` is being resolved (Node, or its name under SCHEMA_PREFIX).
  const node = info.parentType;
  const field = isObjectType(node) ? node.getFields().children : undefined;
  if (!field) return [];
  const levels: number[][] = [];
  let connections: readonly FieldNode[] = info.fieldNodes;
  for (;;) {
    const nodes = [
      ...collect(info, connections, 'nodes'),
      ...collect(info, collect(info, connections, 'edges'), 'node'),
    ];
    const children = collect(info, nodes, 'children');
    if (children.length === 0) return levels;
    const args = children.map((child) =>
      getArgumentValues(field as GraphQLField<unknown, unknown>, child, info.variableValues),
    );
    // A page from a cursor, or read backwards, is read on its own.
    if (args.some((a) => a.after != null || a.before != null || a.last != null)) return levels;
    levels.push([...new Set(args.map((a) => (typeof a.first === 'number' ? a.first : DEFAULT_PAGE_SIZE)))]);
    connections = children;
  }
}

/** Whether the field being resolved selects `name` on its value (a node's changeCursor). */
export const selects = (info: GraphQLResolveInfo, name: string): boolean =>
  collect(info, info.fieldNodes, name).length > 0;

/**
 * The fields named `name` selected directly below `fields`, through fragments, if included. Each
 * named fragment is visited once: a document may spread one fragment 2^40 times over.
 */
function collect(info: GraphQLResolveInfo, fields: readonly FieldNode[], name: string): FieldNode[] {
  const found: FieldNode[] = [];
  const visited = new Set<string>();
  const visit = (set: SelectionSetNode | undefined) => {
    for (const selection of set?.selections ?? []) {
      if (!included(info, selection)) continue;
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === name) found.push(selection);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet);
      } else if (!visited.has(selection.name.value)) {
        visited.add(selection.name.value);
        visit(info.fragments[selection.name.value]?.selectionSet);
      }
    }
  };
  for (const field of fields) visit(field.selectionSet);
  return found;
}

function included(info: GraphQLResolveInfo, node: Parameters<typeof getDirectiveValues>[1]): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, info.variableValues)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, info.variableValues)?.if !== false;
}

/** The fields of a node that read its childCount (the children fields take it as a shortcut). */
const COUNT_READERS = ['childCount', 'children', 'descendants', 'descendantCount'];

/**
 * What a list's nodes may be read without: what the operation never reads (fieldsLeftOut), and
 * their childCount when no field selected on them (through `nodes` or `edges { node }`) reads it.
 */
export function listLeftOut(info: GraphQLResolveInfo): LeftOut {
  const leftOut = fieldsLeftOut(info);
  if (info.operation.operation !== OperationTypeNode.QUERY) return leftOut;
  const nodes = [
    ...collect(info, info.fieldNodes, 'nodes'),
    ...collect(info, collect(info, info.fieldNodes, 'edges'), 'node'),
  ];
  return COUNT_READERS.some((name) => collect(info, nodes, name).length > 0) ? leftOut : [...leftOut, 'childCount'];
}

const leftOutOf = new WeakMap<OperationDefinitionNode, LeftOut>();
const typedFieldsOf = new WeakMap<GraphQLSchema, ReadonlySet<string>>();

/**
 * The fields of the node types (NODE_TYPES) beside the node interface's own, which they read from
 * the node's data: found in the schema itself, so that a subgraph's (rebuilt from its SDL) and a
 * prefixed one's agree. The node interface is the one with `childCount`; none: an untyped schema.
 */
function typedDataFields(schema: GraphQLSchema): ReadonlySet<string> {
  let found = typedFieldsOf.get(schema);
  if (!found) {
    const names = new Set<string>();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isInterfaceType(type) || !type.getFields().childCount) continue;
      const own = type.getFields();
      for (const implementation of schema.getPossibleTypes(type))
        for (const name of Object.keys(implementation.getFields())) if (!(name in own)) names.add(name);
    }
    typedFieldsOf.set(schema, (found = names));
  }
  return found;
}

/**
 * The node fields that no field of the operation names, on any type, in any fragment: its reads
 * may leave them out (LeftOut), and its answer stays the same. A query's only: a mutation's or a
 * subscription's reads read whole nodes. Worked out once per parsed operation.
 */
export function fieldsLeftOut(info: GraphQLResolveInfo): LeftOut {
  if (info.operation.operation !== OperationTypeNode.QUERY) return [];
  let leftOut = leftOutOf.get(info.operation);
  if (!leftOut) {
    const named = new Set<string>();
    const visitor = { Field: (field: FieldNode) => void named.add(field.name.value) };
    visit(info.operation, visitor);
    for (const fragment of Object.values(info.fragments)) visit(fragment, visitor);
    // A node type's field (typedSchema.ts) is read from the node's data.
    const typed = typedDataFields(info.schema);
    if ([...named].some((name) => typed.has(name))) named.add('data');
    leftOut = OPTIONAL_FIELDS.filter((field) => !named.has(field));
    leftOutOf.set(info.operation, leftOut);
  }
  return leftOut;
}
