import { Field, ObjectType } from 'type-graphql';
import type { Page, TreeNode } from '../storage/treeStore.js';
import { Node } from './node.type.js';

@ObjectType('PageInfo')
export class PageInfo {
  @Field(() => Boolean, { description: 'Exact: false on the last page.' })
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true })
  endCursor!: string | null;
}

@ObjectType('NodeEdge')
export class NodeEdge {
  @Field(() => String)
  cursor!: string;

  @Field(() => Node)
  node!: TreeNode;
}

@ObjectType('NodeConnection')
export class NodeConnection {
  @Field(() => [NodeEdge])
  edges!: NodeEdge[];

  @Field(() => [Node])
  nodes!: TreeNode[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;
}

export const EMPTY_PAGE: Page = { edges: [], hasNextPage: false };

/** A page of the storage interface (of nodes, or of jobs) as a GraphQL connection. */
export function toConnection<T>(page: { edges: Array<{ cursor: string; node: T }>; hasNextPage: boolean }) {
  return {
    edges: page.edges,
    get nodes() {
      return page.edges.map((edge) => edge.node);
    },
    pageInfo: {
      hasNextPage: page.hasNextPage,
      // Signed only when selected, like the edges' cursors.
      get endCursor() {
        return page.edges.at(-1)?.cursor ?? null;
      },
    },
  };
}
