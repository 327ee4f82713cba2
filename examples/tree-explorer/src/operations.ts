import { gql, type TypedDocumentNode } from '@apollo/client';

/** Children and roots are fetched this many at a time ("Load more" fetches the next page). */
export const PAGE_SIZE = 5;

export interface TreeNode {
  __typename?: 'Node';
  id: string;
  name: string;
  childCount: number;
  /** null for a root. */
  parentId: string | null;
  /** Sent back as `expectedVersion` by every change made from the tree (move, rename, delete). */
  version: number;
}

/** The parent a move or a delete expects the node to have, as `expectedParentId` takes it ('' for a root). */
export const expectedParentOf = (node: { parentId: string | null }): string => node.parentId ?? '';

export interface NodePage {
  nodes: TreeNode[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const TREE_NODE = gql`
  fragment TreeNodeFields on Node {
    id
    name
    childCount
    parentId
    version
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

/** One node as the tree shows it: to learn its current version after a refused change. */
export const TREE_NODE_QUERY: TypedDocumentNode<{ node: TreeNode | null }, { id: string }> = gql`
  query TreeNode($id: ID!) {
    node(id: $id) { ...TreeNodeFields }
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
  depth: number;
  updatedAt: string;
  ancestors: Array<{ __typename?: 'Node'; id: string; name: string }>;
  /** The open job moving this node's subtree; reads already answer as if it were done. */
  pendingJob: JobInfo | null;
}

export const NODE_DETAILS: TypedDocumentNode<{ node: NodeDetails | null }, { id: string }> = gql`
  query NodeDetails($id: ID!) {
    node(id: $id) {
      ...TreeNodeFields
      depth
      updatedAt
      ancestors { id name }
      pendingJob { ...JobFields }
    }
  }
  ${TREE_NODE}
  ${JOB_FIELDS}
`;

/**
 * Moves a node with its subtree: under `newParentId` (null: a root), before or after one of its
 * new siblings (neither: last). `newParentId` = the current parent with `before`/`after` reorders.
 * A big move answers at once, with `pendingJob` RUNNING while a job rewrites the storage.
 */
export const REPARENT: TypedDocumentNode<
  { reparent: NodeDetails },
  {
    id: string;
    newParentId: string | null;
    before?: string | null;
    after?: string | null;
    expectedVersion?: number;
    expectedParentId?: string;
  }
> = gql`
  mutation Reparent(
    $id: ID!
    $newParentId: ID
    $before: ID
    $after: ID
    $expectedVersion: Int
    $expectedParentId: ID
  ) {
    reparent(
      id: $id
      newParentId: $newParentId
      before: $before
      after: $after
      expectedVersion: $expectedVersion
      expectedParentId: $expectedParentId
    ) {
      ...TreeNodeFields
      depth
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
  { id: string; expectedVersion?: number; expectedParentId?: string }
> = gql`
  mutation DeleteNode($id: ID!, $expectedVersion: Int, $expectedParentId: ID) {
    deleteNode(id: $id, expectedVersion: $expectedVersion, expectedParentId: $expectedParentId) {
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

/** A new node, last among its siblings; `parentId` null makes a root. */
export const CREATE_NODE: TypedDocumentNode<{ createNode: TreeNode }, { name: string; parentId: string | null }> = gql`
  mutation CreateNode($name: String!, $parentId: ID) {
    createNode(input: { name: $name, parentId: $parentId }) { ...TreeNodeFields }
  }
  ${TREE_NODE}
`;

/** Renames a node; refused with VERSION_CONFLICT when it changed since it was read. */
export const RENAME_NODE: TypedDocumentNode<
  { updateNode: TreeNode & { updatedAt: string } },
  { id: string; name: string; expectedVersion: number }
> = gql`
  mutation RenameNode($id: ID!, $name: String!, $expectedVersion: Int) {
    updateNode(id: $id, name: $name, expectedVersion: $expectedVersion) {
      ...TreeNodeFields
      updatedAt
    }
  }
  ${TREE_NODE}
`;

/**
 * How many nodes a delete takes with the node: its descendants, counted by the server
 * (`descendantCount`, the whole subtree), whatever their number, in one request.
 */
export const DESCENDANT_COUNT: TypedDocumentNode<
  { node: { __typename?: 'Node'; id: string; descendantCount: number } | null },
  { id: string }
> = gql`
  query DescendantCount($id: ID!) {
    node(id: $id) {
      id
      descendantCount
    }
  }
`;

/** A change of a tree the app shows (treeChanges): what liveTrees.ts patches the cache with. */
export interface TreeChangeEvent {
  cursor: string;
  kind: string;
  nodeId: string;
  oldParentId: string | null;
  newParentId: string | null;
  node: (Pick<TreeNode, 'id' | 'name' | 'parentId' | 'version'> & { __typename?: 'Node' }) | null;
}

export const TREE_CHANGES: TypedDocumentNode<
  { treeChanges: TreeChangeEvent },
  { nodeId: string; after?: string | null }
> = gql`
    subscription TreeChanges($nodeId: ID!, $after: String) {
      treeChanges(nodeId: $nodeId, after: $after) {
        cursor
        kind
        nodeId
        oldParentId
        newParentId
        node { id name parentId version }
      }
    }
  `;

/** Copies a node with its subtree under `newParentId` (null: a new root), before or after a sibling (neither: last). */
export const COPY_SUBTREE: TypedDocumentNode<
  { copySubtree: { copiedCount: number; node: TreeNode | null; job: JobInfo | null } },
  { id: string; newParentId: string | null; before?: string | null; after?: string | null }
> = gql`
  mutation CopySubtree($id: ID!, $newParentId: ID, $before: ID, $after: ID) {
    copySubtree(input: { id: $id, newParentId: $newParentId, before: $before, after: $after }) {
      copiedCount
      node { ...TreeNodeFields }
      job { ...JobFields }
    }
  }
  ${TREE_NODE}
  ${JOB_FIELDS}
`;

/** One change of a node's history, as the history panel shows it. */
export interface HistoryEntry {
  __typename?: 'TreeChange';
  id: string;
  kind: string;
  at: string;
  by: string | null;
  oldName: string | null;
  oldParentId: string | null;
  newParentId: string | null;
  count: number | null;
}

/** A node's own changes, newest first. */
export const NODE_HISTORY: TypedDocumentNode<
  { node: { __typename?: 'Node'; id: string; history: { nodes: HistoryEntry[] } } | null },
  { id: string; first: number }
> = gql`
  query NodeHistory($id: ID!, $first: Int!) {
    node(id: $id) {
      id
      history(first: $first) {
        nodes { id kind at by oldName oldParentId newParentId count }
      }
    }
  }
`;

/** Takes a change back (an update, a move, a reorder, a create, a copy, a delete): its answer is the undo. */
export const UNDO: TypedDocumentNode<{ undo: { id: string; kind: string; nodeId: string } }, { changeId: string }> =
  gql`
  mutation Undo($changeId: ID!) {
    undo(changeId: $changeId) { id kind nodeId }
  }
`;

/** The deleted subtrees that can be restored, newest first. */
export const DELETED_NODES: TypedDocumentNode<
  { deletedNodes: { nodes: Array<Pick<TreeNode, 'id' | 'name' | 'parentId'> & { __typename?: 'Node' }> } },
  { first: number }
> = gql`
  query DeletedNodes($first: Int!) {
    deletedNodes(first: $first) {
      nodes { id name parentId }
    }
  }
`;

/** Brings a deleted node back with its subtree, where it was. */
export const RESTORE_NODE: TypedDocumentNode<{ restoreNode: TreeNode }, { id: string }> = gql`
  mutation RestoreNode($id: ID!) {
    restoreNode(id: $id) { ...TreeNodeFields }
  }
  ${TREE_NODE}
`;
