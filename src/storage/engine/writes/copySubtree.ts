import { randomUUID } from 'node:crypto';
import { badInput, TreeError } from '../../../errors.js';
import type { CopySubtreeArgs, CreateNodesResult, JsonObject, NewNodeInput, TreeNode } from '../../treeStore.js';
import { checkId, ID_PATTERN } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { existing } from '../core/items.js';
import { readStored, readSubtreeWithin } from '../core/reads.js';
import { Replan, replanning } from '../core/replan.js';
import type { StoredNode } from '../../strategy.js';
import { readVisible } from '../reads/visibleNodes.js';
import { createNodes } from './createNodes.js';

/**
 * copySubtree: a copy of node `id` and its whole subtree under `newParentId` (or as a new root),
 * where before/after say (default: last), with new ids (random, or the old ones behind
 * `idPrefix`), the same names, data and sibling order, and creation times of its own. Written
 * as a createNodes (one transaction when it fits, else an IMPORT job that no read sees before
 * the copy is whole and that any process gives up if it stops), recorded as COPIED. Refused:
 * NOT_FOUND (the node), CYCLE (into its own subtree), DEPTH_LIMIT (the copy's height under its
 * new parent), ALREADY_EXISTS (a prefixed id taken, or the path key among the new siblings:
 * `pathKey` gives the copy its own). The copy is of the subtree as it was at
 * one instant (readSnapshot), never a mix of before and after a change made while it was read.
 */
export async function copySubtree(ctx: EngineContext, args: CopySubtreeArgs): Promise<CreateNodesResult> {
  checkId(args.id);
  const parentId = args.newParentId == null ? null : checkId(args.newParentId, 'newParentId');
  // 1..63 of the characters ids may hold: room for at least one of the id's own.
  if (args.idPrefix != null && !ID_PATTERN.test(`${args.idPrefix}x`))
    throw badInput('idPrefix must be 1..63 of the characters ids may hold', { field: 'idPrefix' });
  // The caller's read on the source's tree is the resolver's to check (graphql/access.ts).
  const nodes = (await replanning(() => readSnapshot(ctx, args.id))).map((s) => s.node);
  if (parentId !== null && nodes.some((n) => n.id === parentId)) {
    throw new TreeError('CYCLE', `cannot copy "${args.id}" into its own subtree ("${parentId}")`);
  }
  const newIdOf = new Map(nodes.map((n) => [n.id, args.idPrefix ? `${args.idPrefix}${n.id}` : randomUUID()]));
  const long = [...newIdOf.values()].find((newId) => !ID_PATTERN.test(newId));
  if (long) throw badInput(`idPrefix makes id "${long}", longer than ids may be`, { field: 'idPrefix' });
  const list: NewNodeInput[] = nodes.map((n) => ({
    id: newIdOf.get(n.id)!,
    name: n.name,
    data: n.id === args.id ? copiedData(ctx, n, args.pathKey) : (n.data ?? null),
    type: n.type ?? null,
    ...(n.id === args.id ? {} : { parentId: newIdOf.get(n.parentId!)! }),
  }));
  return createNodes(
    ctx,
    { parentId, nodes: list },
    { as: { kind: 'COPIED', before: args.before ?? null, after: args.after ?? null } },
  );
}

/** The copy's top node's data: the original's, with `pathKey` as its path key value when given (checked). */
function copiedData(ctx: EngineContext, top: TreeNode, pathKey: string | null | undefined): JsonObject | null {
  if (pathKey == null) return top.data ?? null;
  const field = top.type ? ctx.typedData?.typeNamed(top.type).pathKey : undefined;
  if (!field) {
    const what = top.type ? `a ${top.type}` : 'untyped';
    throw badInput(`node "${top.id}" is ${what}: it has no path key to give the copy`, { field: 'pathKey' });
  }
  return ctx.typedData!.created(top.type!, { ...top.data, [field]: pathKey });
}

/**
 * The subtree of node `id` (its root first, then level by level) as it was at one instant: read
 * level by level, then every node read again in one BatchGet wave, each at the rev it was read
 * at. A node's rev counts every write to it, its children's coming and going included, so when
 * none moved on, every node still had, when they were read again, the fields and the children
 * it was read with: the subtree read is the subtree at that instant. Otherwise (a node moved
 * into, out of or inside the subtree meanwhile) it is read again: Replan, at most MAX_REPLANS
 * times, then CONFLICT.
 */
async function readSnapshot(ctx: EngineContext, id: string): Promise<StoredNode[]> {
  const source = existing(await readVisible(ctx, [id]), id);
  const nodes = [source, ...(await readSubtreeWithin(ctx, source, Number.MAX_SAFE_INTEGER))!.flat()];
  const again = await readStored(
    ctx,
    nodes.map((s) => s.node.id),
  );
  const moved = nodes.find((s) => {
    const now = again.get(s.node.id);
    return !now || now.rev !== s.rev || now.deleting !== undefined;
  });
  if (moved) throw new Replan(`node "${moved.node.id}" changed while the subtree was read for a copy`);
  return nodes;
}
