import { gql, type TypedDocumentNode } from '@apollo/client';

/** Children and roots are fetched this many at a time ("Load more" fetches the next page). */
export const PAGE_SIZE = 5;

export interface TreeNode {
  __typename?: 'Node';
  id: string;
  name: string;
  childCount: number;
}

export interface NodePage {
  nodes: TreeNode[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const TREE_NODE = gql`
  fragment TreeNodeFields on Node {
    id
    name
    childCount
  }
`;

export const ROOTS: TypedDocumentNode<{ roots: NodePage }, { first: number; after?: string | null }> = gql`
  query Roots($first: Int!, $after: String) {
    roots(first: $first, after: $after) {
      nodes { ...TreeNodeFields }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${TREE_NODE}
`;

export const CHILDREN: TypedDocumentNode<
  { node: (TreeNode & { children: NodePage }) | null },
  { id: string; first: number; after?: string | null }
> = gql`
  query Children($id: ID!, $first: Int!, $after: String) {
    node(id: $id) {
      ...TreeNodeFields
      children(first: $first, after: $after) {
        nodes { ...TreeNodeFields }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
  ${TREE_NODE}
`;

export interface NodeDetails extends TreeNode {
  parentId: string | null;
  depth: number;
  version: number;
  updatedAt: string;
  ancestors: Array<{ __typename?: 'Node'; id: string; name: string }>;
}

export const NODE_DETAILS: TypedDocumentNode<{ node: NodeDetails | null }, { id: string }> = gql`
  query NodeDetails($id: ID!) {
    node(id: $id) {
      ...TreeNodeFields
      parentId
      depth
      version
      updatedAt
      ancestors { id name }
    }
  }
  ${TREE_NODE}
`;

export const REPARENT: TypedDocumentNode<
  { reparent: NodeDetails },
  { id: string; newParentId: string | null; expectedVersion?: number }
> = gql`
  mutation Reparent($id: ID!, $newParentId: ID, $expectedVersion: Int) {
    reparent(id: $id, newParentId: $newParentId, expectedVersion: $expectedVersion) {
      ...TreeNodeFields
      parentId
      depth
      version
      updatedAt
      ancestors { id name }
    }
  }
  ${TREE_NODE}
`;
