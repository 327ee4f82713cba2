/**
 * Reads what the API says about a set of nodes (every field the tree derives, every page of
 * children and descendants) and checks it: against a TreeModel, or, when no model can predict
 * the outcome (concurrent writes), against the parent pointers the API itself reports.
 */
import { isDeepStrictEqual } from 'node:util';
import type { GraphQLResponse, TestServer } from './server.js';
import type { TreeModel } from './model.js';
import type { NodeView } from './tree.js';

/** A node's stored fields (tree.ts's NodeView, without timestamps) plus what the tree derives. */
export interface NodeSnapshot extends Omit<NodeView, 'createdAt' | 'updatedAt'> {
  ancestors: string[];
  /** Every child, every page, in the order the API gave. */
  children: Array<{ id: string; position: string; parentId: string | null }>;
  /** Every descendant (minDepth 1, no maxDepth), every page, in the order the API gave. */
  descendants: Array<{ id: string; depth: number }>;
  /** The same in document order (`order: PREORDER`), every page. */
  preorder: Array<{ id: string; depth: number }>;
}

/** id -> view, or null where the API says the node does not exist. */
export type Snapshot = Map<string, NodeSnapshot | null>;

export interface SnapshotOptions {
  /** Page sizes of the first request; small values exercise cursor pagination. */
  childrenPage?: number;
  descendantsPage?: number;
  /** Page size of the follow-up pages. */
  followPage?: number;
}

const NODE_FIELDS = 'id name parentId rootId depth childCount version position data';

const SNAPSHOT = `query Snapshot($ids: [ID!]!, $cf: Int!, $df: Int!) {
  nodes(ids: $ids) {
    ${NODE_FIELDS}
    ancestors { id }
    children(first: $cf) { nodes { id position parentId } pageInfo { hasNextPage endCursor } }
    descendants(first: $df) { nodes { id depth } pageInfo { hasNextPage endCursor } }
    preorder: descendants(first: $df, order: PREORDER) { nodes { id depth } pageInfo { hasNextPage endCursor } }
  }
}`;

const CHILDREN_PAGE = `query ChildrenPage($id: ID!, $first: Int!, $after: String) {
  node(id: $id) {
    children(first: $first, after: $after) { nodes { id position parentId } pageInfo { hasNextPage endCursor } }
  }
}`;

const DESCENDANTS_PAGE = `query DescendantsPage($id: ID!, $first: Int!, $after: String) {
  node(id: $id) {
    descendants(first: $first, after: $after) { nodes { id depth } pageInfo { hasNextPage endCursor } }
  }
}`;

const PREORDER_PAGE = `query PreorderPage($id: ID!, $first: Int!, $after: String) {
  node(id: $id) {
    descendants(first: $first, after: $after, order: PREORDER) { nodes { id depth } pageInfo { hasNextPage endCursor } }
  }
}`;

const ROOTS_PAGE = `query RootsPage($first: Int!, $after: String) {
  roots(first: $first, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } }
}`;

/** Bound on follow-up pages of one connection: a server that never ends paging is a bug. */
const MAX_PAGES = 200;

interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export class ApiError extends Error {
  constructor(
    readonly operation: string,
    readonly response: GraphQLResponse,
  ) {
    super(`${operation} failed: HTTP ${response.status} ${JSON.stringify(response.body.errors ?? response.body)}`);
    this.name = 'ApiError';
  }
}

/** Runs a read that must succeed and returns its data. */
export async function read<T = any>(
  server: TestServer,
  operation: string,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const response = await server.gql<T>(query, variables);
  if (response.status !== 200 || response.body.errors || !response.body.data) {
    throw new ApiError(operation, response);
  }
  return response.body.data;
}

export async function snapshot(
  server: TestServer,
  ids: readonly string[],
  options: SnapshotOptions = {},
): Promise<Snapshot> {
  const cf = options.childrenPage ?? 100;
  const df = options.descendantsPage ?? 100;
  const follow = options.followPage ?? 100;
  const result: Snapshot = new Map();
  if (ids.length === 0) return result;
  const data = await read<{ nodes: Array<any> }>(server, 'snapshot', SNAPSHOT, { ids, cf, df });
  if (data.nodes.length !== ids.length) {
    throw new Error(`nodes(ids) returned ${data.nodes.length} entries for ${ids.length} ids`);
  }
  await Promise.all(
    ids.map(async (id, index) => {
      const raw = data.nodes[index];
      if (raw === null || raw === undefined) {
        result.set(id, null);
        return;
      }
      if (raw.id !== id) throw new Error(`nodes(ids)[${index}] is "${raw.id}", expected "${id}"`);
      const children = [...raw.children.nodes];
      const descendants = [...raw.descendants.nodes];
      const preorder = [...raw.preorder.nodes];
      await Promise.all([
        followPages(raw.children.pageInfo, async (after) => {
          const page = await read(server, `children of ${id}`, CHILDREN_PAGE, { id, first: follow, after });
          if (!page.node) throw new Error(`node "${id}" vanished while paging its children`);
          children.push(...page.node.children.nodes);
          return page.node.children.pageInfo;
        }),
        followPages(raw.descendants.pageInfo, async (after) => {
          const page = await read(server, `descendants of ${id}`, DESCENDANTS_PAGE, { id, first: follow, after });
          if (!page.node) throw new Error(`node "${id}" vanished while paging its descendants`);
          descendants.push(...page.node.descendants.nodes);
          return page.node.descendants.pageInfo;
        }),
        followPages(raw.preorder.pageInfo, async (after) => {
          const page = await read(server, `descendants of ${id} in preorder`, PREORDER_PAGE, {
            id,
            first: follow,
            after,
          });
          if (!page.node) throw new Error(`node "${id}" vanished while paging its descendants in preorder`);
          preorder.push(...page.node.descendants.nodes);
          return page.node.descendants.pageInfo;
        }),
      ]);
      result.set(id, {
        id: raw.id,
        name: raw.name,
        parentId: raw.parentId,
        rootId: raw.rootId,
        depth: raw.depth,
        childCount: raw.childCount,
        version: raw.version,
        position: raw.position,
        data: raw.data ?? null,
        ancestors: raw.ancestors.map((a: { id: string }) => a.id),
        children,
        descendants,
        preorder,
      });
    }),
  );
  return result;
}

async function followPages(first: PageInfo, next: (after: string) => Promise<PageInfo>): Promise<void> {
  let info = first;
  for (let pages = 0; info.hasNextPage; pages++) {
    if (pages >= MAX_PAGES) throw new Error(`more than ${MAX_PAGES} pages`);
    if (!info.endCursor) throw new Error('hasNextPage is true but endCursor is null');
    info = await next(info.endCursor);
  }
}

/** Every descendant of `id` (minDepth 1, no maxDepth), read page by page with `first: pageSize`. */
export async function pagedDescendants(
  server: TestServer,
  id: string,
  pageSize: number,
): Promise<Array<{ id: string; depth: number }>> {
  const all: Array<{ id: string; depth: number }> = [];
  let after: string | null = null;
  for (let pages = 0; ; pages++) {
    if (pages >= MAX_PAGES) throw new Error(`descendants of ${id}: more than ${MAX_PAGES} pages`);
    const data: any = await read(server, `descendants of ${id}`, DESCENDANTS_PAGE, { id, first: pageSize, after });
    if (!data.node) throw new Error(`node "${id}" vanished while paging its descendants`);
    const page = data.node.descendants;
    if (page.nodes.length > pageSize)
      throw new Error(`descendants of ${id}: ${page.nodes.length} nodes on a page of ${pageSize}`);
    all.push(...page.nodes);
    if (!page.pageInfo.hasNextPage) return all;
    after = page.pageInfo.endCursor;
  }
}

/** Every root id, every page, in order. */
export async function allRoots(server: TestServer, pageSize = 1000): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (let pages = 0; ; pages++) {
    if (pages >= MAX_PAGES) throw new Error(`roots: more than ${MAX_PAGES} pages`);
    const data: any = await read(server, 'roots', ROOTS_PAGE, { first: pageSize, after });
    ids.push(...data.roots.nodes.map((n: { id: string }) => n.id));
    if (!data.roots.pageInfo.hasNextPage) return ids;
    after = data.roots.pageInfo.endCursor;
  }
}

/** Problems found when comparing what the API says with the model (empty: they agree). */
export function compareWithModel(snap: Snapshot, model: TreeModel, maxProblems = 20): string[] {
  const problems: string[] = [];
  const say = (message: string) => {
    if (problems.length < maxProblems) problems.push(message);
  };
  for (const [id, view] of snap) {
    if (!model.has(id)) {
      if (view !== null) say(`${id}: should not exist, API returns it (parentId ${view.parentId})`);
      continue;
    }
    if (view === null) {
      say(`${id}: missing from the API`);
      continue;
    }
    const node = model.get(id);
    const expect = (field: string, got: unknown, want: unknown) => {
      if (!isDeepStrictEqual(got, want))
        say(`${id}.${field}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    };
    expect('parentId', view.parentId, node.parentId);
    expect('name', view.name, node.name);
    expect('data', view.data, node.data);
    expect('depth', view.depth, model.depth(id));
    expect('rootId', view.rootId, model.rootId(id));
    expect('childCount', view.childCount, model.children(id).length);
    expect('ancestors', view.ancestors, model.ancestors(id));
    expect(
      'children',
      view.children.map((c) => c.id),
      model.children(id),
    );
    for (const child of view.children) {
      if (child.parentId !== id) say(`${id}.children: ${child.id} reports parentId ${child.parentId}`);
    }
    const levels = model.descendantsByDepth(id);
    const base = model.depth(id);
    expect(
      'descendants (by depth, as sets)',
      groupByDepth(view.descendants, base),
      levels.map((l) => [...l].sort()),
    );
    const depthOrder = view.descendants.map((d) => d.depth);
    if (!isNonDecreasing(depthOrder))
      say(`${id}.descendants: not ordered by depth: ${JSON.stringify(view.descendants)}`);
    expect(
      'descendants in preorder',
      view.preorder,
      preorderOf(id, base, (each) => model.children(each)),
    );
  }
  return problems;
}

/**
 * The descendants of `id` (at depth `depth`) in document order, children listed by `childrenOf`;
 * a node listed twice (children lists that loop) is not followed again.
 */
export function preorderOf(
  id: string,
  depth: number,
  childrenOf: (id: string) => readonly string[],
  seen = new Set([id]),
): Array<{ id: string; depth: number }> {
  return childrenOf(id).flatMap((child) => {
    if (seen.has(child)) return [{ id: child, depth: depth + 1 }];
    seen.add(child);
    return [{ id: child, depth: depth + 1 }, ...preorderOf(child, depth + 1, childrenOf, seen)];
  });
}

/**
 * Problems with the tree as the API describes it, judged only by its own parent pointers:
 * every parent exists, no cycle, and every derived field and connection agrees with the
 * pointers. `snap` must hold every node that may exist (unknown ids are reported).
 */
export function checkForest(snap: Snapshot, maxProblems = 30): string[] {
  const problems: string[] = [];
  const say = (message: string) => {
    if (problems.length < maxProblems) problems.push(message);
  };
  const live = new Map<string, NodeSnapshot>();
  for (const [id, view] of snap) if (view) live.set(id, view);

  const kidsOf = new Map<string, string[]>();
  for (const view of live.values()) {
    if (view.parentId === null) continue;
    if (!live.has(view.parentId)) say(`${view.id}: orphan, its parent ${view.parentId} does not exist`);
    const list = kidsOf.get(view.parentId) ?? [];
    list.push(view.id);
    kidsOf.set(view.parentId, list);
  }

  // Chains by parent pointers; a chain that revisits a node or leaves the set is reported.
  const chains = new Map<string, string[]>();
  for (const view of live.values()) {
    const chain: string[] = [];
    let current = view.parentId;
    let broken = false;
    while (current !== null) {
      if (current === view.id || chain.includes(current)) {
        say(`${view.id}: cycle in parent pointers: ${[view.id, ...chain.slice().reverse(), current].join(' -> ')}`);
        broken = true;
        break;
      }
      const parent = live.get(current);
      if (!parent) {
        broken = true;
        break;
      }
      chain.unshift(current);
      current = parent.parentId;
    }
    if (!broken) chains.set(view.id, chain);
  }

  for (const view of live.values()) {
    const id = view.id;
    const chain = chains.get(id);
    const expected = new Set(kidsOf.get(id) ?? []);
    const childIds = view.children.map((c) => c.id);
    if (view.childCount !== expected.size)
      say(`${id}.childCount: ${view.childCount}, but ${expected.size} nodes point to it`);
    if (!sameSet(childIds, [...expected]))
      say(`${id}.children: ${JSON.stringify(childIds)}, pointers say ${JSON.stringify([...expected].sort())}`);
    if (new Set(childIds).size !== childIds.length) say(`${id}.children has duplicates: ${JSON.stringify(childIds)}`);
    const positions = view.children.map((c) => c.position);
    if (!isNonDecreasing(positions)) say(`${id}.children not in position order: ${JSON.stringify(positions)}`);
    for (const child of view.children) {
      if (!snap.has(child.id)) say(`${id}.children: unknown node ${child.id}`);
      if (child.parentId !== id) say(`${id}.children: ${child.id} reports parentId ${child.parentId}`);
    }
    if (!chain) continue;
    if (!isDeepStrictEqual(view.ancestors, chain))
      say(`${id}.ancestors: ${JSON.stringify(view.ancestors)}, pointers say ${JSON.stringify(chain)}`);
    if (view.depth !== chain.length) say(`${id}.depth: ${view.depth}, pointers say ${chain.length}`);
    const root = chain[0] ?? id;
    if (view.rootId !== root) say(`${id}.rootId: ${view.rootId}, pointers say ${root}`);

    const levels: string[][] = [];
    let frontier = [id];
    for (let guard = 0; frontier.length > 0 && guard <= live.size; guard++) {
      const next = frontier.flatMap((each) => kidsOf.get(each) ?? []);
      if (next.length === 0) break;
      levels.push(next.sort());
      frontier = next;
    }
    const got = groupByDepth(view.descendants, view.depth);
    if (!isDeepStrictEqual(got, levels))
      say(`${id}.descendants: ${JSON.stringify(got)}, pointers say ${JSON.stringify(levels)}`);
    if (!isNonDecreasing(view.descendants.map((d) => d.depth))) say(`${id}.descendants not ordered by depth`);
    for (const d of view.descendants) if (!snap.has(d.id)) say(`${id}.descendants: unknown node ${d.id}`);
    // Document order, by the children lists the API gave (their order checked above).
    const listed = (each: string) => live.get(each)?.children.map((c) => c.id) ?? [];
    const preorder = preorderOf(id, view.depth, listed);
    if (!isDeepStrictEqual(view.preorder, preorder))
      say(
        `${id}.descendants in preorder: ${JSON.stringify(view.preorder)}, ` +
          `children lists say ${JSON.stringify(preorder)}`,
      );
  }
  return problems;
}

/** Descendant ids per relative depth (1, 2, ...), each sorted; gaps show as empty levels. */
function groupByDepth(descendants: Array<{ id: string; depth: number }>, baseDepth: number): string[][] {
  const levels: string[][] = [];
  for (const d of descendants) {
    const relative = d.depth - baseDepth;
    if (relative < 1) {
      levels.push([`<${d.id} at relative depth ${relative}>`]);
      continue;
    }
    while (levels.length < relative) levels.push([]);
    levels[relative - 1]!.push(d.id);
  }
  return levels.map((l) => l.sort());
}

function isNonDecreasing(values: ReadonlyArray<number | string>): boolean {
  for (let i = 1; i < values.length; i++) if (values[i - 1]! > values[i]!) return false;
  return true;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return isDeepStrictEqual([...a].sort(), [...b].sort());
}
