import { readFileSync } from 'node:fs';
import { parseNodeTypes, type NodeTypes, type ReservedNames } from './nodeTypes.js';

/**
 * The names a node type or one of its fields may not take: the fields every node has (the schema's
 * `Node`), and the schema's own types, with those the typed schema adds (the test of this module
 * compares them with the schema built).
 */
export const RESERVED: ReservedNames = {
  fields: new Set([
    'access',
    'ancestors',
    'changeCursor',
    'childCount',
    'children',
    'createdAt',
    'data',
    'depth',
    'descendantCount',
    'descendants',
    'grants',
    'history',
    'id',
    'name',
    'parent',
    'parentId',
    'pendingJob',
    'position',
    'rootId',
    'updatedAt',
    'version',
  ]),
  types: new Set([
    'AccessLevel',
    'CopySubtreeInput',
    'CopySubtreeResult',
    'CreateNodeInput',
    'CreateNodesInput',
    'CreateNodesResult',
    'DateTime',
    'DeleteResult',
    'DescendantsOrder',
    'Grant',
    'JSONObject',
    'Job',
    'JobConnection',
    'JobEdge',
    'JobKind',
    'JobStatus',
    'Mutation',
    'NewNodeInput',
    'Node',
    'NodeConnection',
    'NodeEdge',
    'PageInfo',
    'PathLookup',
    'Query',
    'Subscription',
    'TreeChange',
    'TreeChangeConnection',
    'TreeChangeEdge',
    'TreeChangeKind',
    'UntypedNode',
    'NodeFilter',
    'StringFilter',
    'IntFilter',
    'FloatFilter',
    'BooleanFilter',
    'DateTimeFilter',
    'String',
    'Int',
    'Float',
    'Boolean',
    'ID',
  ]),
};

/**
 * NODE_TYPES's file, read and parsed: its node types, or every problem of the file (an Error whose
 * lines the configuration's refusal lists).
 */
export function loadNodeTypes(path: string): NodeTypes {
  let sdl: string;
  try {
    sdl = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return parseNodeTypes(sdl, RESERVED);
}
