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

/** A long-running job: a big move or delete goes on in the background after its mutation answers. */
export interface JobInfo {
  __typename?: 'Job';
  id: string;
  kind: 'MOVE' | 'DELETE' | 'IMPORT' | 'REINDEX';
  status: 'RUNNING' | 'DONE' | 'FAILED';
  done: number;
  /** null while a move runs: it does not count its nodes beforehand. */
  total: number | null;
}

const JOB_FIELDS = gql`
  fragment JobFields on Job {
    id
    kind
    status
    done
    total
  }
`;

export interface NodeDetails extends TreeNode {
  parentId: string | null;
  depth: number;
  version: number;
  updatedAt: string;
  ancestors: Array<{ __typename?: 'Node'; id: string; name: string }>;
  /** The open job moving this node's subtree; reads already answer as if it were done. */
  pendingJob: JobInfo | null;
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
      pendingJob { ...JobFields }
    }
  }
  ${TREE_NODE}
  ${JOB_FIELDS}
`;

/** A big move answers at once, with `pendingJob` RUNNING while a job rewrites the storage. */
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
      pendingJob { ...JobFields }
    }
  }
  ${TREE_NODE}
  ${JOB_FIELDS}
`;

/** Deletes the node with its subtree; `job` is RUNNING when the subtree was too big for one transaction. */
export const DELETE_NODE: TypedDocumentNode<
  { deleteNode: { deletedCount: number; job: JobInfo | null } },
  { id: string; expectedVersion?: number }
> = gql`
  mutation DeleteNode($id: ID!, $expectedVersion: Int) {
    deleteNode(id: $id, expectedVersion: $expectedVersion) {
      deletedCount
      job { ...JobFields }
    }
  }
  ${JOB_FIELDS}
`;

/** A job's progress; null once it is unknown (finished more than a day ago). */
export const JOB: TypedDocumentNode<{ job: JobInfo | null }, { id: string }> = gql`
  query Job($id: ID!) {
    job(id: $id) { ...JobFields }
  }
  ${JOB_FIELDS}
`;
