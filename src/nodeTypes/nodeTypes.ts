import {
  GraphQLError,
  Kind,
  parse,
  valueFromASTUntyped,
  type ConstDirectiveNode,
  type FieldDefinitionNode,
  type ObjectTypeDefinitionNode,
  type TypeNode,
} from 'graphql';

/** The scalars a node type's field may have, beside the file's own enums. */
export const FIELD_SCALARS = ['String', 'Int', 'Float', 'Boolean', 'DateTime'] as const;
export type FieldScalar = (typeof FIELD_SCALARS)[number];

/** A typed field's type: a scalar or an enum of the file, maybe a list, each level nullable or not. */
export interface FieldType {
  /** A scalar of FIELD_SCALARS, or the name of an enum of the file. */
  named: string;
  /** Non-null (`String!`). */
  required: boolean;
  /** A list of `named` (`[String!]`); `itemRequired` says whether its items may be null. */
  list: boolean;
  itemRequired: boolean;
}

export interface NodeField {
  name: string;
  type: FieldType;
  description?: string;
  /** The value a create without the field gives it (`@default(value: ...)`), checked against its type. */
  default?: unknown;
}

export interface NodeType {
  name: string;
  description?: string;
  fields: NodeField[];
  /** The types its children may have (`@children(types: [...])`); undefined: any type, and untyped nodes. */
  children?: string[];
  /** The field that names the node in a path (`@pathKey`): a String!, unique among its siblings. */
  pathKey?: string;
}

export interface NodeEnum {
  name: string;
  description?: string;
  values: string[];
}

/** The node types of NODE_TYPES's file, by name, and its enums. */
export interface NodeTypes {
  types: Map<string, NodeType>;
  enums: Map<string, NodeEnum>;
}

/** What a type's name or a field's may not be: the schema's own. */
export interface ReservedNames {
  types: ReadonlySet<string>;
  fields: ReadonlySet<string>;
}

const DIRECTIVES = { type: ['children'], field: ['default', 'pathKey'] };

/**
 * The node types an SDL text declares (docs/contract.md, "Typed nodes"): `type` definitions with
 * fields of FIELD_SCALARS or the file's enums, lists of these, `!` where required, and three
 * directives: `@children(types: [A, B])` on a type, `@default(value: ...)` and `@pathKey` on a
 * field. Every problem is collected; an Error listing them all (with their lines) when any.
 */
export function parseNodeTypes(sdl: string, reserved: ReservedNames): NodeTypes {
  let document;
  try {
    document = parse(sdl, { noLocation: false });
  } catch (error) {
    throw new Error(error instanceof GraphQLError ? error.message : String(error));
  }
  const problems: string[] = [];
  const at = (node: { loc?: { startToken: { line: number } } }) => `line ${node.loc?.startToken.line ?? '?'}`;
  const enums = new Map<string, NodeEnum>();
  const objects: ObjectTypeDefinitionNode[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.ENUM_TYPE_DEFINITION) {
      const values = (definition.values ?? []).map((value) => value.name.value);
      enums.set(definition.name.value, {
        name: definition.name.value,
        description: definition.description?.value,
        values,
      });
      if (values.length === 0) problems.push(`${at(definition)}: enum ${definition.name.value} has no values`);
    } else if (definition.kind === Kind.OBJECT_TYPE_DEFINITION) {
      objects.push(definition);
    } else {
      problems.push(
        `${at(definition)}: only node types (type) and enums (enum) may be declared, not ${definition.kind}`,
      );
    }
  }
  const names = [...objects.map((o) => o.name.value), ...enums.keys()];
  for (const name of new Set(names)) {
    if (names.filter((n) => n === name).length > 1) problems.push(`${name} is declared more than once`);
    if (reserved.types.has(name)) problems.push(`${name} is a name of Canopy's schema: name the type otherwise`);
  }
  if (objects.length === 0) problems.push('no node type is declared (type Name { ... })');
  const types = new Map<string, NodeType>();
  for (const object of objects) types.set(object.name.value, nodeTypeOf(object, { enums, reserved, problems, at }));
  for (const type of types.values()) {
    for (const child of type.children ?? []) {
      if (!types.has(child)) problems.push(`${type.name} @children names ${child}, which is no node type of the file`);
    }
  }
  problems.push(...fieldTypeConflicts(types));
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return { types, enums };
}

/** A field name of two node types with two types of value: a filter compares a field by its name alone. */
function fieldTypeConflicts(types: Map<string, NodeType>): string[] {
  const seen = new Map<string, { type: string; named: string }>();
  const problems: string[] = [];
  for (const type of types.values()) {
    for (const field of type.fields) {
      const first = seen.get(field.name);
      if (!first) seen.set(field.name, { type: type.name, named: field.type.named });
      else if (first.named !== field.type.named) {
        problems.push(
          `${field.name} is ${first.named} in ${first.type} but ${field.type.named} in ${type.name}: ` +
            'a field name has one type of value in every node type (filters compare it by its name)',
        );
      }
    }
  }
  return problems;
}

interface Parsing {
  enums: Map<string, NodeEnum>;
  reserved: ReservedNames;
  problems: string[];
  at: (node: { loc?: { startToken: { line: number } } }) => string;
}

function nodeTypeOf(object: ObjectTypeDefinitionNode, parsing: Parsing): NodeType {
  const { problems, at } = parsing;
  const name = object.name.value;
  if ((object.interfaces ?? []).length > 0) problems.push(`${at(object)}: ${name} implements Canopy's Node only`);
  const type: NodeType = { name, description: object.description?.value, fields: [] };
  for (const directive of object.directives ?? []) {
    if (!DIRECTIVES.type.includes(directive.name.value)) {
      problems.push(`${at(directive)}: @${directive.name.value} is not a node type's directive (@children)`);
      continue;
    }
    const types = argument(directive, 'types');
    if (!Array.isArray(types) || !types.every((t) => typeof t === 'string')) {
      problems.push(`${at(directive)}: ${name} @children takes types: a list of node types ([A, B], or [] for none)`);
    } else {
      type.children = types;
    }
  }
  for (const field of object.fields ?? []) {
    const parsed = fieldOf(field, name, parsing);
    if (!parsed) continue;
    type.fields.push(parsed.field);
    if (parsed.pathKey) {
      if (type.pathKey)
        problems.push(`${at(field)}: ${name} has two @pathKey fields, ${type.pathKey} and ${field.name.value}`);
      type.pathKey = field.name.value;
    }
  }
  if (type.fields.length === 0) problems.push(`${at(object)}: ${name} has no field`);
  return type;
}

function fieldOf(
  field: FieldDefinitionNode,
  typeName: string,
  { enums, reserved, problems, at }: Parsing,
): { field: NodeField; pathKey: boolean } | undefined {
  const where = `${at(field)}: ${typeName}.${field.name.value}`;
  if (reserved.fields.has(field.name.value)) {
    problems.push(`${where} is a field of every node: name it otherwise`);
    return undefined;
  }
  if ((field.arguments ?? []).length > 0) problems.push(`${where} takes no arguments`);
  const type = fieldTypeOf(field.type);
  if (typeof type === 'string') {
    problems.push(`${where}: ${type}`);
    return undefined;
  }
  if (!(FIELD_SCALARS as readonly string[]).includes(type.named) && !enums.has(type.named)) {
    problems.push(`${where}: ${type.named} is neither ${FIELD_SCALARS.join(', ')} nor an enum of the file`);
    return undefined;
  }
  const parsed: NodeField = { name: field.name.value, type, description: field.description?.value };
  let pathKey = false;
  for (const directive of field.directives ?? []) {
    if (directive.name.value === 'pathKey') {
      pathKey = true;
      if (type.named !== 'String' || type.list || !type.required) problems.push(`${where}: a @pathKey is a String!`);
    } else if (directive.name.value === 'default') {
      const value = argument(directive, 'value');
      const problem = valueProblem(type, value, enums);
      if (problem) problems.push(`${where} @default: ${problem}`);
      else parsed.default = value;
    } else {
      problems.push(`${at(directive)}: @${directive.name.value} is not a field's directive (@default, @pathKey)`);
    }
  }
  return { field: parsed, pathKey };
}

/** A field's type from its SDL, or why it cannot be one. */
function fieldTypeOf(node: TypeNode): FieldType | string {
  const required = node.kind === Kind.NON_NULL_TYPE;
  const inner = node.kind === Kind.NON_NULL_TYPE ? node.type : node;
  if (inner.kind === Kind.NAMED_TYPE) return { named: inner.name.value, required, list: false, itemRequired: false };
  const item = inner.type;
  const itemRequired = item.kind === Kind.NON_NULL_TYPE;
  const named = item.kind === Kind.NON_NULL_TYPE ? item.type : item;
  if (named.kind !== Kind.NAMED_TYPE) return 'a list of lists is not a field type';
  return { named: named.name.value, required, list: true, itemRequired };
}

/** A directive's argument as a plain value (an enum value as its name). */
function argument(directive: ConstDirectiveNode, name: string): unknown {
  const arg = directive.arguments?.find((a) => a.name.value === name);
  return arg ? valueFromASTUntyped(arg.value) : undefined;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** Why `value` is not a value of `type` (undefined: it is; null only where the type allows it). */
export function valueProblem(type: FieldType, value: unknown, enums: Map<string, NodeEnum>): string | undefined {
  if (value === null || value === undefined) return type.required ? 'is required' : undefined;
  if (type.list) {
    if (!Array.isArray(value)) return `must be a list of ${type.named}`;
    for (const [index, item] of value.entries()) {
      const problem = valueProblem({ ...type, list: false, required: type.itemRequired }, item, enums);
      if (problem) return `[${index}] ${problem}`;
    }
    return undefined;
  }
  return scalarProblem(type.named, value, enums);
}

function scalarProblem(named: string, value: unknown, enums: Map<string, NodeEnum>): string | undefined {
  switch (named) {
    case 'String':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'Int':
      return Number.isInteger(value) && Math.abs(value as number) <= 2 ** 31 - 1 ? undefined : 'must be an Int';
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a finite number';
    case 'Boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'DateTime':
      return typeof value === 'string' && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))
        ? undefined
        : 'must be a date-time (ISO 8601, with its offset)';
    default: {
      const values = enums.get(named)?.values ?? [];
      return typeof value === 'string' && values.includes(value) ? undefined : `must be one of ${values.join(', ')}`;
    }
  }
}
