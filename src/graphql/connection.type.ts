import { Directive, Field, ObjectType } from 'type-graphql';
import type { Page, TreeNode } from '../storage/treeStore.js';
import { Node } from './node.type.js';

// Relay's shape, which other subgraphs of a supergraph define too: shareable (the subgraph SDL
// alone prints the directive, see federation.ts).
@Directive('@shareable')
@ObjectType('PageInfo', {
  simpleResolvers: true,
  description: 'Where a page of a connection stands in the whole list.',
})
export class PageInfo {
  @Field(() => Boolean, {
    description:
      'Paging forward: exact, false on the last page. Paging backward (Relay cursor connections): true when ' +
      'the page ends before a cursor (`before`).',
  })
  hasNextPage!: boolean;

  @Field(() => Boolean, {
    description:
      'Paging backward: exact, false on the first page. Paging forward (Relay cursor connections): true when ' +
      'the page starts after a cursor (`after`).',
  })
  hasPreviousPage!: boolean;

  @Field(() => String, {
    nullable: true,
    description: "The first edge's cursor: pass it as `before` for the page before; null on an empty page.",
  })
  startCursor!: string | null;

  @Field(() => String, {
    nullable: true,
    description: "The last edge's cursor: pass it as `after` for the next page; null on an empty page.",
  })
  endCursor!: string | null;
}

@ObjectType('NodeEdge', { simpleResolvers: true, description: 'A node of a page, with its cursor.' })
export class NodeEdge {
  @Field(() => String, {
    description: 'Opaque, signed: pass it as `after` to read the nodes after this one, as `before` for those before.',
  })
  cursor!: string;

  @Field(() => Node, { description: 'The node.' })
  node!: TreeNode;
}

@ObjectType('NodeConnection', { simpleResolvers: true, description: 'A page of nodes (Relay cursor connection).' })
export class NodeConnection {
  @Field(() => [NodeEdge], { description: "The page's nodes with their cursors." })
  edges!: NodeEdge[];

  @Field(() => [Node], { description: "The page's nodes, as in `edges`, without cursors." })
  nodes!: TreeNode[];

  @Field(() => PageInfo, { description: 'Whether more nodes follow, and the cursor to read them from.' })
  pageInfo!: PageInfo;
}

export const EMPTY_PAGE: Page = { edges: [], hasNextPage: false };

/**
 * A page of the storage interface (of nodes, or of jobs) as a GraphQL connection, in list order;
 * `read`: how it was read (relayPage.ts), if from a cursor or backwards.
 */
export function toConnection<T>(
  page: { edges: Array<{ cursor: string; node: T }>; hasNextPage: boolean },
  read: { after?: string | null; backwards?: boolean } = {},
) {
  const edges = read.backwards ? [...page.edges].reverse() : page.edges;
  const fromCursor = read.after != null;
  return {
    edges,
    get nodes() {
      return edges.map((edge) => edge.node);
    },
    pageInfo: {
      hasNextPage: read.backwards ? fromCursor : page.hasNextPage,
      hasPreviousPage: read.backwards ? page.hasNextPage : fromCursor,
      // Signed only when selected, like the edges' cursors.
      get startCursor() {
        return edges[0]?.cursor ?? null;
      },
      get endCursor() {
        return edges.at(-1)?.cursor ?? null;
      },
    },
  };
}
