import { badInput } from '../../../errors.js';
import { patchedData as untypedPatched } from '../../../nodeTypes/typedData.js';
import type { StoredNode } from '../../strategy.js';
import type { JsonObject, NewNodeInput, TreeNode } from '../../treeStore.js';
import { checkData } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { within } from './newNodes.js';

/**
 * A new node's type and data as NODE_TYPES's rules make them (nodeTypes/typedData.ts: the
 * defaults given, every field checked), before any DynamoDB call; BAD_USER_INPUT for a type
 * without NODE_TYPES.
 */
export function typedNew(
  ctx: Pick<EngineContext, 'typedData'>,
  type: string | null | undefined,
  data: JsonObject | null | undefined,
): { type: string | null; data: JsonObject | null } {
  const named = type ?? null;
  if (!ctx.typedData) {
    if (named !== null) throw badInput(`type ${named}: no node types are declared (NODE_TYPES)`, { field: 'type' });
    return { type: null, data: data ?? null };
  }
  return { type: named, data: ctx.typedData.created(named, data ?? null) };
}

/** BAD_USER_INPUT unless `parent` (null: the roots) may hold a child of type `child` (NODE_TYPES). */
export function checkChildType(
  ctx: Pick<EngineContext, 'typedData'>,
  parent: StoredNode | null,
  child: string | null | undefined,
): void {
  if (!ctx.typedData || !parent) return;
  ctx.typedData.checkChild(parent.node.type ?? null, child ?? null, parent.node.id);
}

/**
 * A createNodes list under NODE_TYPES: each node's type and data as typedNew makes them, and each
 * node of the list that goes under another allowed there (the top nodes are checked against the
 * parent once it is read: checkChildType). BAD_USER_INPUT names the node (`nodes[3].Product.price`).
 */
export function typedList<T extends NewNodeInput>(
  ctx: Pick<EngineContext, 'typedData'>,
  nodes: T[],
  parentId: string | null,
): T[] {
  if (!ctx.typedData && nodes.every((n) => n.type == null)) return nodes;
  const typed = nodes.map((n, i) => within(`nodes[${i}]`, () => ({ ...n, ...typedNew(ctx, n.type, n.data) })));
  const byId = new Map(typed.map((n) => [n.id, n]));
  for (const [i, n] of typed.entries()) {
    const parent = n.parentId == null ? undefined : byId.get(n.parentId);
    if (parent)
      within(`nodes[${i}]`, () => ctx.typedData?.checkChild(parent.type ?? null, n.type ?? null, parent.id ?? null));
  }
  checkPathKeys(ctx, typed, parentId);
  return typed;
}

/**
 * BAD_USER_INPUT when two nodes of a list under one parent have one path key value; the top
 * nodes' parent is the call's (`parentId`; null: the roots, which need none).
 */
function checkPathKeys(ctx: Pick<EngineContext, 'typedData'>, nodes: NewNodeInput[], parentId: string | null): void {
  if (!ctx.typedData) return;
  const placed = nodes.map((n) => ({ parentId: n.parentId ?? parentId, type: n.type, data: n.data ?? null }));
  const [same] = ctx.typedData.samePathKeys(placed);
  if (!same) return;
  const { type } = nodes[same.index]!;
  const field = `nodes[${same.index}].${type}.${ctx.typedData.typeNamed(type!).pathKey}`;
  throw badInput(`${field}: "${same.value}" is the path key of nodes[${same.first}] too, under the same parent`, {
    field,
  });
}

/**
 * The data an update gives a node in place of its own: under its type (NODE_TYPES), the fields
 * it leaves out take their defaults and every field is checked, as at a create.
 */
export function replacedData(ctx: Pick<EngineContext, 'typedData'>, node: TreeNode, data: JsonObject | null) {
  if (!ctx.typedData || !node.type) return data;
  const typed = ctx.typedData.created(node.type, data);
  checkData(typed);
  return typed;
}

/** The node's data after a JSON merge patch, checked whole (under its type, when it has one). */
export function patchedData(ctx: Pick<EngineContext, 'typedData'>, node: TreeNode, patch: JsonObject) {
  const after = ctx.typedData
    ? ctx.typedData.patched(node.type ?? null, node.data, patch)
    : untypedPatched(node.data, patch);
  checkData(after);
  return after;
}

/** BAD_USER_INPUT when a typed patch is of another type than the node's. */
export function checkPatchType(node: TreeNode, type: string | null | undefined): void {
  if (type == null || node.type === type) return;
  const is = node.type ? `a ${node.type}` : 'untyped';
  throw badInput(`node "${node.id}" is ${is}: it takes no ${type} fields`, { field: type });
}
