import { isDeepStrictEqual } from 'node:util';
import { badInput } from '../errors.js';
import type { JsonObject } from '../storage/treeStore.js';
import { valueProblem, type NodeType, type NodeTypes } from './nodeTypes.js';

/**
 * The rules of typed nodes that every write applies before any DynamoDB call
 * (docs/contract.md, "Typed nodes"): a typed node's `data` holds its type's fields and nothing
 * else, each of its type; a create gives the defaults of the fields it leaves out; a parent
 * holds only the children its type allows. BAD_USER_INPUT names the field (`Category.price`).
 */
export class TypedData {
  constructor(readonly nodeTypes: NodeTypes) {}

  /** The declared type of that name; BAD_USER_INPUT when the file declares none. */
  typeNamed(name: string): NodeType {
    const type = this.nodeTypes.types.get(name);
    if (!type) {
      const known = [...this.nodeTypes.types.keys()].join(', ');
      throw badInput(`type ${name} is not a node type (NODE_TYPES declares ${known})`, { field: 'type' });
    }
    return type;
  }

  /** A new node's data under its type: the defaults given, every field checked; unchanged when untyped. */
  created(typeName: string | null, data: JsonObject | null): JsonObject | null {
    if (typeName === null) return data;
    const type = this.typeNamed(typeName);
    const given: JsonObject = { ...data };
    for (const field of type.fields) {
      if (given[field.name] === undefined && field.default !== undefined) given[field.name] = field.default;
    }
    return this.checked(type, given);
  }

  /**
   * A node's data after a JSON merge patch (RFC 7386: a null removes a field, an object merges
   * into an object, anything else replaces), checked whole under its type.
   */
  patched(typeName: string | null, before: JsonObject | null, patch: JsonObject): JsonObject | null {
    if (typeName === null) return patchedData(before, patch);
    return this.checked(this.typeNamed(typeName), mergePatch(before ?? {}, patch));
  }

  /** BAD_USER_INPUT unless a parent of type `parent` (null: a root, or untyped) may hold a child of type `child`. */
  checkChild(parent: string | null, child: string | null, parentId: string | null): void {
    if (parent === null) return;
    const allowed = this.typeNamed(parent).children;
    if (allowed === undefined || (child !== null && allowed.includes(child))) return;
    const what = child === null ? 'an untyped node' : `a ${child}`;
    const may = allowed.length === 0 ? 'holds no children' : `holds only ${allowed.join(', ')}`;
    throw badInput(`${parent} "${parentId}" ${may}: it cannot hold ${what}`, { field: 'parentId' });
  }

  /**
   * The value that names a node in a path (its type's `@pathKey` field); null when its type has
   * none, or the node is untyped.
   */
  pathKeyOf(node: { type?: string | null; data: JsonObject | null }): string | null {
    const field = node.type ? this.nodeTypes.types.get(node.type)?.pathKey : undefined;
    const value = field === undefined ? undefined : node.data?.[field];
    return typeof value === 'string' ? value : null;
  }

  /**
   * The nodes of a list that take a path key value an earlier node of the list holds under the
   * same parent (`index`, and the earlier one's `first`): what a write would refuse. Nodes under no
   * parent (roots) need none.
   */
  samePathKeys(
    nodes: ReadonlyArray<{ parentId: string | null; type?: string | null; data: JsonObject | null }>,
  ): Array<{ index: number; first: number; value: string }> {
    const seen = new Map<string, number>();
    const same: Array<{ index: number; first: number; value: string }> = [];
    for (const [index, node] of nodes.entries()) {
      const value = node.parentId === null ? null : this.pathKeyOf(node);
      if (!value) continue;
      const key = JSON.stringify([node.parentId, value]);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else same.push({ index, first, value });
    }
    return same;
  }

  private checked(type: NodeType, data: JsonObject): JsonObject | null {
    const declared = new Set(type.fields.map((f) => f.name));
    for (const name of Object.keys(data)) {
      if (!declared.has(name)) {
        throw badInput(`${type.name}.${name} is not a field of ${type.name}`, { field: `${type.name}.${name}` });
      }
    }
    for (const field of type.fields) {
      const problem = valueProblem(field.type, data[field.name], this.nodeTypes.enums);
      const wrong = problem ?? (field.name === type.pathKey ? pathKeyProblem(data[field.name] as string) : undefined);
      if (wrong) throw badInput(`${type.name}.${field.name} ${wrong}`, { field: `${type.name}.${field.name}` });
    }
    const kept = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null && value !== undefined));
    return Object.keys(kept).length === 0 ? null : kept;
  }
}

/** The longest path key value, in characters: it is part of an item's sort key. */
export const PATH_KEY_MAX = 200;

/** What is wrong with a path key's value: it names one step of a path (docs/contract.md, "Paths"). */
function pathKeyProblem(value: string): string | undefined {
  if (value.length === 0) return 'is a path key: it may not be empty';
  if (value.length > PATH_KEY_MAX) return `is a path key: at most ${PATH_KEY_MAX} characters, got ${value.length}`;
  if (value.includes('/')) return `is a path key: it may not hold "/", got "${value}"`;
  return undefined;
}

/** An untyped node's data after a JSON merge patch: null once no field is left. */
export function patchedData(before: JsonObject | null, patch: JsonObject): JsonObject | null {
  const after = mergePatch(before ?? {}, patch);
  return Object.keys(after).length === 0 ? null : after;
}

/** RFC 7386's JSON merge patch of an object. */
export function mergePatch(target: JsonObject, patch: JsonObject): JsonObject {
  const result: JsonObject = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else if (isObject(value)) result[key] = mergePatch(isObject(result[key]) ? result[key] : {}, value);
    else result[key] = value;
  }
  return result;
}

/**
 * The JSON merge patch that makes `from` into `to` (mergePatch(from, patch) equals `to`): what
 * changed, and nothing else. null when no patch can: a null in an object of `to`, which a merge
 * patch reads as a removal.
 */
export function diffPatch(from: JsonObject, to: JsonObject): JsonObject | null {
  const patch: JsonObject = {};
  for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    const was = from[key];
    if (isDeepStrictEqual(was, value)) continue;
    const inner = isObject(value) && isObject(was) ? diffPatch(was, value) : holdsNull(value) ? null : value;
    if (inner === null) return null;
    patch[key] = inner;
  }
  return patch;
}

/** Whether a value holds a null a merge patch would read as a removal (arrays are taken whole). */
const holdsNull = (value: unknown): boolean =>
  value === null || (isObject(value) && Object.values(value).some(holdsNull));

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
