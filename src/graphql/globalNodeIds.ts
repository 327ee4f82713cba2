import {
  defaultFieldResolver,
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLFieldConfig,
  type GraphQLFieldResolver,
  type GraphQLInputType,
  type GraphQLType,
  type GraphQLSchema,
} from 'graphql';
import { isTreeError, TreeError, type ErrorCode } from '../errors.js';
import type { GlobalIds } from './globalId.js';

/**
 * Where the schema's `ID`s stand: `Type.field` (a field's value), `Type.field(arg)` (an
 * argument), `Input.field` (an input field). Every ID names a tree node unless listed in `raw`
 * (a job's id); `lenient` ones read an id of another type as null (Relay's `node`, `nodes`);
 * `blankIsRoot` ones take the empty string as it is (`expectedParentId: ""`: a root).
 */
export interface NodeIdPositions {
  raw: ReadonlySet<string>;
  lenient: ReadonlySet<string>;
  blankIsRoot: ReadonlySet<string>;
}

/** Turns one value of an argument (or input field), as given, into what the resolver takes. */
type Decode = (value: unknown) => unknown;

/** The codes whose `id` detail names a node: the client gets it back as it gave it, global. */
const NODE_ID_ERRORS = new Set<ErrorCode>(['NOT_FOUND', 'ALREADY_EXISTS', 'FORBIDDEN', 'CONFLICT']);

/**
 * RELAY_NODE's one wrapper around the resolvers: every node id an argument or input field takes
 * is decoded from its global id before the resolver runs (BAD_USER_INPUT when it is not one of
 * the tree node type's), every node id a field answers is encoded, and so is the `id` of a
 * refusal that names a node. Resolvers, loaders and storage see raw ids only. Returns the
 * wrapper of a field config: `undefined` for a field with no node id in or out (left as it is).
 */
export function globalNodeIds(schema: GraphQLSchema, ids: GlobalIds, positions: NodeIdPositions) {
  const decoders = argumentDecoders(schema, ids, positions);
  return (config: GraphQLFieldConfig<unknown, unknown>, fieldName: string, typeName: string) => {
    const position = `${typeName}.${fieldName}`;
    const encodes = isId(getNamedType(config.type)) && !positions.raw.has(position);
    const args = Object.entries(config.args ?? {}).flatMap(([name, arg]) => {
      const decode = decoders(arg.type, `${position}(${name})`, name);
      return decode ? [[name, decode] as const] : [];
    });
    if (!encodes && args.length === 0) return undefined;
    const resolve = config.resolve ?? defaultFieldResolver;
    const encode = (value: unknown) => (encodes ? encodeIds(value, ids) : value);
    const decodeArgs = (given: Record<string, unknown>) => {
      const decoded = { ...given };
      for (const [name, decode] of args) if (name in decoded) decoded[name] = decode(decoded[name]);
      return decoded;
    };
    const wrapped: GraphQLFieldResolver<unknown, unknown> = (source, given: Record<string, unknown>, context, info) => {
      const decoded = decodeArgs(given);
      try {
        const result = resolve(source, decoded, context, info);
        return result instanceof Promise
          ? result.then(encode, (error: unknown) => {
              throw globalizeError(error, ids);
            })
          : encode(result);
      } catch (error) {
        throw globalizeError(error, ids);
      }
    };
    // A subscription's field takes its arguments when it subscribes, as well as per event.
    // The field's description says its ids are global.
    const described = encodes ? { description: `${config.description ?? ''} A Relay global id.`.trim() } : {};
    const { subscribe } = config;
    if (subscribe) {
      const decodedSubscribe: GraphQLFieldResolver<unknown, unknown> = (
        source,
        given: Record<string, unknown>,
        ...rest
      ) => subscribe(source, decodeArgs(given), ...rest);
      return { ...config, ...described, resolve: wrapped, subscribe: decodedSubscribe };
    }
    return { ...config, ...described, resolve: wrapped };
  };
}

/**
 * The decoder of an argument or input field of type `type` at `position` (`field`: its name,
 * for the error), or null when it holds no node id. Input object types are looked up in
 * `schema` by name and decoded field by field (each type's decoder built once).
 */
function argumentDecoders(schema: GraphQLSchema, ids: GlobalIds, positions: NodeIdPositions) {
  const inputs = new Map<string, Decode | null>();
  const decoderOf = (type: GraphQLInputType, position: string, field: string): Decode | null => {
    if (isNonNullType(type)) return decoderOf(type.ofType, position, field);
    if (isListType(type)) {
      const item = decoderOf(type.ofType, position, field);
      return item && ((value) => (Array.isArray(value) ? value.map(item) : item(value)));
    }
    if (isId(type)) {
      if (positions.raw.has(position)) return null;
      const otherType = positions.lenient.has(position) ? 'null' : 'refuse';
      const blank = positions.blankIsRoot.has(position) ? '' : undefined;
      return (value) => (typeof value === 'string' && value !== blank ? ids.decode(value, field, otherType) : value);
    }
    const named = schema.getType(getNamedType(type).name);
    return isInputObjectType(named) ? inputDecoder(named.name) : null;
  };
  const inputDecoder = (name: string): Decode | null => {
    if (inputs.has(name)) return inputs.get(name)!;
    inputs.set(name, null); // a type that holds itself adds nothing while it is being built
    const type = schema.getType(name);
    if (!isInputObjectType(type)) return null;
    const fields = Object.values(type.getFields()).flatMap((field) => {
      const decode = decoderOf(field.type, `${name}.${field.name}`, field.name);
      return decode ? [[field.name, decode] as const] : [];
    });
    const decode: Decode | null =
      fields.length === 0
        ? null
        : (value) => {
            if (value === null || typeof value !== 'object') return value;
            const decoded: Record<string, unknown> = { ...(value as Record<string, unknown>) };
            for (const [field, decodeField] of fields)
              if (field in decoded) decoded[field] = decodeField(decoded[field]);
            return decoded;
          };
    inputs.set(name, decode);
    return decode;
  };
  return decoderOf;
}

const isId = (type: GraphQLType): boolean => isScalarType(type) && type.name === 'ID';

/** A field's value with its node ids global (an id, null, or a list of them). */
function encodeIds(value: unknown, ids: GlobalIds): unknown {
  if (Array.isArray(value)) return value.map((item) => encodeIds(item, ids));
  return typeof value === 'string' ? ids.encode(value) : value;
}

/**
 * A refusal naming a node (`extensions.id`, and its message) with the node's global id; a
 * PARENT_CONFLICT with its `currentParentId` and the parents its message quotes global too.
 */
function globalizeError(error: unknown, ids: GlobalIds): unknown {
  if (isTreeError(error, 'PARENT_CONFLICT')) {
    const { id, currentParentId } = error.details!;
    const details = { id: ids.encode(id), currentParentId: currentParentId && ids.encode(currentParentId) };
    return new TreeError(
      error.code,
      error.message.replace(/"([^"]+)"/g, (_, raw: string) => `"${ids.encode(raw)}"`),
      details,
    );
  }
  if (!isTreeError(error) || !NODE_ID_ERRORS.has(error.code)) return error;
  const id = (error.details as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string') return error;
  const global = ids.encode(id);
  const details = { ...error.details, id: global } as never;
  return new TreeError(error.code, error.message.replaceAll(`"${id}"`, `"${global}"`), details);
}
