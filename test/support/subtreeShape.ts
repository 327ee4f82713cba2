import type { Gql } from './jwtCaller.js';
import { okData } from './tree.js';

/** A node of a subtree as a copy or restore must reproduce it. */
export interface Shape {
  name: string;
  data: unknown;
  /** Below the subtree's root. */
  depth: number;
  /** The index of its parent in document order (-1: the subtree's root). */
  parent: number;
}

type Listed = { id: string; parentId: string; name: string; data: unknown; depth: number };
type Page = { nodes: Listed[]; pageInfo: { hasNextPage: boolean; endCursor: string } };

const PAGE = `query P($id: ID!, $after: String) { node(id: $id) { depth descendants(minDepth: 0, order: PREORDER,
  first: 1000, after: $after) { nodes { id parentId name data depth } pageInfo { hasNextPage endCursor } } } }`;

/**
 * The subtree of `id` in document order, read by `gql`: its ids, and each node's name, data, depth
 * and parent's index.
 */
export async function subtreeShape(gql: Gql, id: string): Promise<{ ids: string[]; shape: Shape[] }> {
  const nodes: Listed[] = [];
  let after: string | null = null;
  for (;;) {
    const page: Page = okData<{ node: { descendants: Page } }>(await gql(PAGE, { id, after })).node.descendants;
    nodes.push(...page.nodes);
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor;
  }
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const top = nodes[0]!.depth;
  return {
    ids: nodes.map((n) => n.id),
    shape: nodes.map((n, i) => ({
      name: n.name,
      data: n.data,
      depth: n.depth - top,
      parent: i === 0 ? -1 : index.get(n.parentId)!,
    })),
  };
}

/** `ids[0]` over `ids[1]` over ... over `children`. */
export function chain<T extends { id: string; children?: T[] }>(ids: string[], children: T[]): T {
  const [id, ...rest] = ids;
  return { id: id!, children: rest.length > 0 ? [chain(rest, children)] : children } as T;
}

/** A spec whose every node carries data of its own. */
export function withData<T extends { id: string; data?: unknown; children?: T[] }>(spec: T): T {
  return { ...spec, data: { of: spec.id, n: spec.id.length }, children: spec.children?.map(withData) };
}

/** A character of 4 bytes in UTF-8 and 2 UTF-16 units. */
export const EMOJI = '😀';
/** `{"t":"…"}` of 16,382 emoji: 8 + 65,528 = 65,536 bytes of JSON, the limit exactly. */
export const widestData = (emoji = EMOJI) => ({ t: emoji.repeat(16_382) });
/** A node of the longest name (256 characters, 1,024 bytes) and the largest data. */
export const widest = (id: string, emoji = EMOJI) => ({ id, name: emoji.repeat(256), data: widestData(emoji) });
