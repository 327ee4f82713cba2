import { queryItems } from '../../../dynamodb/query.js';
import { keyQuery } from '../../../dynamodb/keyQuery.js';
import { GRANT_SK_PREFIX, NODE_PK_PREFIX } from '../../../dynamodb/keys.js';
import { positionIn, withCursors } from '../../cursor.js';
import type { Grant, NewestFirstPage, TreeNode } from '../../treeStore.js';
import { checkId, checkPage, ID_PATTERN } from '../../validation.js';
import { grantOfItem } from '../access/grantItems.js';
import type { EngineContext, HeldGrants } from '../core/engineContext.js';
import { readExistingNodes } from '../reads/visibleNodes.js';

/** The grants on node `nodeId` (not those it inherits), by principal: one Query of its collection. */
export async function grantsOn(ctx: EngineContext, nodeId: string): Promise<Grant[]> {
  checkId(nodeId, 'nodeId');
  const query = keyQuery(ctx.table, { pk: `${NODE_PK_PREFIX}${nodeId}`, sk: { beginsWith: GRANT_SK_PREFIX } });
  return (await queryItems(ctx.doc, query)).items.map(grantOfItem);
}

/**
 * A page of the nodes the caller's grants are on (`held`), those below another of them left out,
 * in id order: the tops of what is shared with it. A grant on a node that is gone (deleted, to
 * be restored) is kept but not listed. One BatchGetItem of the nodes, and the chains a strategy
 * that keeps no path reads (one batched read a level).
 */
export async function sharedTops(
  ctx: EngineContext,
  held: HeldGrants,
  first: number,
  after: string | null | undefined,
): Promise<NewestFirstPage<TreeNode>> {
  checkPage({ first });
  const start =
    after == null ? undefined : positionIn(ctx.cursors, after, LIST, isId, 'after is not a cursor of sharedWithMe');
  const ids = [...held.keys()].filter((id) => start === undefined || id > start);
  const nodes = ids.length === 0 ? [] : [...(await readExistingNodes(ctx, ids)).values()];
  const read = async (wanted: readonly string[]) => {
    const found = await ctx.getNodes(wanted);
    return wanted.map((id) => found.get(id) ?? null);
  };
  const chains = nodes.length === 0 ? [] : await ctx.strategy.ancestors(ctx, nodes, read);
  const tops = nodes
    .filter((_, i) => !chains[i]!.some((ancestor) => held.has(ancestor.id)))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const page = tops.slice(0, first);
  return withCursors(ctx.cursors, LIST, {
    entries: page.map((node) => ({ value: node, after: node.id })),
    hasNextPage: tops.length > first,
    end: page.at(-1)?.id,
  });
}

const LIST = { t: 'sw' } as const;
const isId = (s: unknown): boolean => typeof s === 'string' && ID_PATTERN.test(s);
