/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** What a grant allows on a node and its whole subtree; each level includes the ones before it. */
export type AccessLevel =
  /** Also grant and revoke access, and move nodes out of the subtree. */
  | 'ADMIN'
  /** Read the nodes, their history and their changes. */
  | 'READ'
  /** Also create, update, move (within), delete and restore nodes. */
  | 'WRITE';

/** The fields of a new Category. */
export type CategoryInput = {
  /** The category's part of a path: unique among its siblings. */
  slug: string;
  /** Shown above the shelf. */
  title?: string | null | undefined;
};

/** What a job does. */
export type JobKind =
  /** Removes a subtree too big for one transaction. */
  | 'DELETE'
  /** Writes the nodes of a createNodes list too big for one transaction. */
  | 'IMPORT'
  /** Rewrites the stored places of a moved subtree too big for one transaction. */
  | 'MOVE'
  /** Rebuilds the table's projection for another storage strategy (tree reindex). */
  | 'REINDEX';

/** Where a job stands. */
export type JobStatus =
  /** Finished. */
  | 'DONE'
  /** Given up; nothing of it stays applied. */
  | 'FAILED'
  /** Under way: some live process runs it, or takes it over. */
  | 'RUNNING';

/** The fields of a new Product. */
export type ProductInput = {
  launchedAt?: string | null | undefined;
  /** In the shop's currency. */
  price?: number | null | undefined;
  /** The product's part of a path: unique among its siblings. */
  slug: string;
  status?: ProductStatus | null | undefined;
  stock?: number | null | undefined;
  tags?: Array<string> | null | undefined;
};

/** Where a product is in its life. */
export type ProductStatus =
  | 'DRAFT'
  | 'LIVE'
  | 'RETIRED';

/** What a change did, as the subscriber of a subtree sees it. */
export type TreeChangeKind =
  /** A copy of a subtree was made (count): nodeId is the copy, created in the window. */
  | 'COPIED'
  /** A node was created in the window (with its subtree: count). */
  | 'CREATED'
  /** A node was deleted, with its subtree (count). */
  | 'DELETED'
  /** A job working in the window ended (job); an import: its nodes joined. */
  | 'JOB_DONE'
  /** A job working in the window progressed (job). */
  | 'JOB_PROGRESS'
  /** A node moved from one parent to another, both in the window. */
  | 'MOVED'
  /** A node (with its subtree: count) moved into the window from outside it. */
  | 'MOVED_IN'
  /** A node (with its subtree) moved out of the window. */
  | 'MOVED_OUT'
  /** A node moved among its siblings. */
  | 'REORDERED'
  /** A deleted node came back, with its subtree (count): restoreNode, or the undo of a delete. */
  | 'RESTORED'
  /** A node's name or data changed. */
  | 'UPDATED';

type TreeNodeFields_Category_Fragment = { __typename: 'Category', id: string, name: string, childCount: number, parentId: string | null, version: number };

type TreeNodeFields_Product_Fragment = { __typename: 'Product', id: string, name: string, childCount: number, parentId: string | null, version: number };

type TreeNodeFields_UntypedNode_Fragment = { __typename: 'UntypedNode', id: string, name: string, childCount: number, parentId: string | null, version: number };

export type TreeNodeFieldsFragment =
  | TreeNodeFields_Category_Fragment
  | TreeNodeFields_Product_Fragment
  | TreeNodeFields_UntypedNode_Fragment
;

export type JobFieldsFragment = { __typename: 'Job', id: string, kind: JobKind, status: JobStatus, done: number, total: number | null };

type NodeDetailsFields_Category_Fragment = { __typename: 'Category', slug: string, title: string | null, depth: number, updatedAt: string, access: AccessLevel, id: string, name: string, childCount: number, parentId: string | null, version: number, ancestors: Array<
    | { __typename: 'Category', id: string, name: string }
    | { __typename: 'Product', id: string, name: string }
    | { __typename: 'UntypedNode', id: string, name: string }
  >, pendingJob: { __typename: 'Job', id: string, kind: JobKind, status: JobStatus, done: number, total: number | null } | null };

type NodeDetailsFields_Product_Fragment = { __typename: 'Product', slug: string, price: number, status: ProductStatus, depth: number, updatedAt: string, access: AccessLevel, id: string, name: string, childCount: number, parentId: string | null, version: number, ancestors: Array<
    | { __typename: 'Category', id: string, name: string }
    | { __typename: 'Product', id: string, name: string }
    | { __typename: 'UntypedNode', id: string, name: string }
  >, pendingJob: { __typename: 'Job', id: string, kind: JobKind, status: JobStatus, done: number, total: number | null } | null };

type NodeDetailsFields_UntypedNode_Fragment = { __typename: 'UntypedNode', depth: number, updatedAt: string, access: AccessLevel, id: string, name: string, childCount: number, parentId: string | null, version: number, ancestors: Array<
    | { __typename: 'Category', id: string, name: string }
    | { __typename: 'Product', id: string, name: string }
    | { __typename: 'UntypedNode', id: string, name: string }
  >, pendingJob: { __typename: 'Job', id: string, kind: JobKind, status: JobStatus, done: number, total: number | null } | null };

export type NodeDetailsFieldsFragment =
  | NodeDetailsFields_Category_Fragment
  | NodeDetailsFields_Product_Fragment
  | NodeDetailsFields_UntypedNode_Fragment
;

export type RootsQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type RootsQuery = { roots: { __typename: 'NodeConnection', nodes: Array<
      | { __typename: 'Category', id: string, name: string, childCount: number, parentId: string | null, version: number }
      | { __typename: 'Product', id: string, name: string, childCount: number, parentId: string | null, version: number }
      | { __typename: 'UntypedNode', id: string, name: string, childCount: number, parentId: string | null, version: number }
    >, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null } } };

export type ChildrenQueryVariables = Exact<{
  id: string | number;
  first: number;
  after?: string | null | undefined;
}>;


export type ChildrenQuery = { node:
    | { __typename: 'Category', id: string, name: string, childCount: number, parentId: string | null, version: number, children: { __typename: 'NodeConnection', nodes: Array<
          | { __typename: 'Category', id: string, name: string, childCount: number, parentId: string | null, version: number }
          | { __typename: 'Product', id: string, name: string, childCount: number, parentId: string | null, version: number }
          | { __typename: 'UntypedNode', id: string, name: string, childCount: number, parentId: string | null, version: number }
        >, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null } } }
    | { __typename: 'Product', id: string, name: string, childCount: number, parentId: string | null, version: number, children: { __typename: 'NodeConnection', nodes: Array<
          | { __typename: 'Category', id: string, name: string, childCount: number, parentId: string | null, version: number }
          | { __typename: 'Product', id: string, name: string, childCount: number, parentId: string | null, version: number }
          | { __typename: 'UntypedNode', id: string, name: string, childCount: number, parentId: string | null, version: number }
        >, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null } } }
    | { __typename: 'UntypedNode', id: string, name: string, childCount: number, parentId: string | null, version: number, children: { __typename: 'NodeConnection', nodes: Array<
          | { __typename: 'Category', id: string, name: string, childCount: number, parentId: string | null, version: number }
          | { __typename: 'Product', id: string, name: string, childCount: number, parentId: string | null, version: number }
          | { __typename: 'UntypedNode', id: string, name: string, childCount: number, parentId: string | null, version: number }
        >, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null } } }
   | null };

export type TreeNodeQueryVariables = Exact<{
  id: string | number;
}>;


export type TreeNodeQuery = { node:
    | { __typename: 'Category', id: string, name: string, childCount: number, parentId: string | null, version: number }
    | { __typename: 'Product', id: string, name: string, childCount: number, parentId: string | null, version: number }
    | { __typename: 'UntypedNode', id: string, name: string, childCount: number, parentId: string | null, version: number }
   | null };

export type NodeDetailsQueryVariables = Exact<{
  id: string | number;
}>;


export type NodeDetailsQuery = { node:
    | { __typename: 'Category', slug: string, title: string | null, depth: number, updatedAt: string, access: AccessLevel, id: string, name: string, childCount: number, parentId: string | null, version: number, ancestors: Array<
        | { __typename: 'Category', id: string, name: string }
        | { __typename: 'Product', id: string, name: string }
        | { __typename: 'UntypedNode', id: string, name: string }
      >, pendingJob: { __typename: 'Job', id: string, kind: JobKind, status: JobStatus, done: number, total: number | null } | null }
    | { __typename: 'Product', slug: string, price: number, status: ProductStatus, depth: number, updatedAt: string, access: AccessLevel, id: string, name: string, childCount: number, parentId: string | null, version: number, ancestors: Array<
        | { __typename: 'Category', id: string, name: string }
        | { __typename: 'Product', id: string, name: string }
        | { __typename: 'UntypedNode', id: string, name: string }
      >, pendingJob: { __typename: 'Job', id: string, kind: JobKind, status: JobStatus, done: number, total: number | null } | null }
    | { __typename: 'UntypedNode', depth: number, updatedAt: string, access: AccessLevel, id: string, name: string, childCount: number, parentId: string | null, version: number, ancestors: Array<
        | { __typename: 'Category', id: string, name: string }
        | { __typename: 'Product', id: string, name: string }
        | { __typename: 'UntypedNode', id: string, name: string }
      >, pendingJob: { __typename: 'Job', id: string, kind: JobKind, status: JobStatus, done: number, total: number | null } | null }
   | null };

export type ReparentMutationVariables = Exact<{
  id: string | number;
  newParentId?: string | number | null | undefined;
  before?: string | number | null | undefined;
  after?: string | number | null | undefined;
  expectedVersion?: number | null | undefined;
  expectedParentId?: string | number | null | undefined;
}>;


export type ReparentMutation = { reparent:
    | { __typename: 'Category', slug: string, title: string | null, depth: number, updatedAt: string, access: AccessLevel, id: string, name: string, childCount: number, parentId: string | null, version: number, ancestors: Array<
        | { __typename: 'Category', id: string, name: string }
        | { __typename: 'Product', id: string, name: string }
        | { __typename: 'UntypedNode', id: string, name: string }
      >, pendingJob: { __typename: 'Job', id: string, kind: JobKind, status: JobStatus, done: number, total: number | null } | null }
    | { __typename: 'Product', slug: string, price: number, status: ProductStatus, depth: number, updatedAt: string, access: AccessLevel, id: string, name: string, childCount: number, parentId: string | null, version: number, ancestors: Array<
        | { __typename: 'Category', id: string, name: string }
        | { __typename: 'Product', id: string, name: string }
        | { __typename: 'UntypedNode', id: string, name: string }
      >, pendingJob: { __typename: 'Job', id: string, kind: JobKind, status: JobStatus, done: number, total: number | null } | null }
    | { __typename: 'UntypedNode', depth: number, updatedAt: string, access: AccessLevel, id: string, name: string, childCount: number, parentId: string | null, version: number, ancestors: Array<
        | { __typename: 'Category', id: string, name: string }
        | { __typename: 'Product', id: string, name: string }
        | { __typename: 'UntypedNode', id: string, name: string }
      >, pendingJob: { __typename: 'Job', id: string, kind: JobKind, status: JobStatus, done: number, total: number | null } | null }
   };

export type DeleteNodeMutationVariables = Exact<{
  id: string | number;
  expectedVersion?: number | null | undefined;
  expectedParentId?: string | number | null | undefined;
}>;


export type DeleteNodeMutation = { deleteNode: { __typename: 'DeleteResult', deletedCount: number, job: { __typename: 'Job', id: string, kind: JobKind, status: JobStatus, done: number, total: number | null } | null } };

export type JobQueryVariables = Exact<{
  id: string | number;
}>;


export type JobQuery = { job: { __typename: 'Job', id: string, kind: JobKind, status: JobStatus, done: number, total: number | null } | null };

export type CreateNodeMutationVariables = Exact<{
  name: string;
  parentId?: string | number | null | undefined;
  category?: CategoryInput | null | undefined;
  product?: ProductInput | null | undefined;
}>;


export type CreateNodeMutation = { createNode:
    | { __typename: 'Category', id: string, name: string, childCount: number, parentId: string | null, version: number }
    | { __typename: 'Product', id: string, name: string, childCount: number, parentId: string | null, version: number }
    | { __typename: 'UntypedNode', id: string, name: string, childCount: number, parentId: string | null, version: number }
   };

export type RenameNodeMutationVariables = Exact<{
  id: string | number;
  name: string;
  expectedVersion?: number | null | undefined;
}>;


export type RenameNodeMutation = { updateNode:
    | { __typename: 'Category', updatedAt: string, id: string, name: string, childCount: number, parentId: string | null, version: number }
    | { __typename: 'Product', updatedAt: string, id: string, name: string, childCount: number, parentId: string | null, version: number }
    | { __typename: 'UntypedNode', updatedAt: string, id: string, name: string, childCount: number, parentId: string | null, version: number }
   };

export type UpdatePriceMutationVariables = Exact<{
  id: string | number;
  price: number;
  expectedVersion?: number | null | undefined;
}>;


export type UpdatePriceMutation = { updateNode:
    | { __typename: 'Category', updatedAt: string, id: string, name: string, childCount: number, parentId: string | null, version: number }
    | { __typename: 'Product', price: number, updatedAt: string, id: string, name: string, childCount: number, parentId: string | null, version: number }
    | { __typename: 'UntypedNode', updatedAt: string, id: string, name: string, childCount: number, parentId: string | null, version: number }
   };

export type DescendantCountQueryVariables = Exact<{
  id: string | number;
}>;


export type DescendantCountQuery = { node:
    | { __typename: 'Category', id: string, descendantCount: number }
    | { __typename: 'Product', id: string, descendantCount: number }
    | { __typename: 'UntypedNode', id: string, descendantCount: number }
   | null };

export type TreeChangesSubscriptionVariables = Exact<{
  nodeId: string | number;
  after?: string | null | undefined;
}>;


export type TreeChangesSubscription = { treeChanges: { __typename: 'TreeChange', cursor: string, kind: TreeChangeKind, nodeId: string, oldParentId: string | null, newParentId: string | null, node:
      | { __typename: 'Category', slug: string, title: string | null, id: string, name: string, parentId: string | null, version: number, updatedAt: string }
      | { __typename: 'Product', slug: string, price: number, status: ProductStatus, id: string, name: string, parentId: string | null, version: number, updatedAt: string }
      | { __typename: 'UntypedNode', id: string, name: string, parentId: string | null, version: number, updatedAt: string }
     | null } };

export type CopySubtreeMutationVariables = Exact<{
  id: string | number;
  newParentId?: string | number | null | undefined;
  before?: string | number | null | undefined;
  after?: string | number | null | undefined;
}>;


export type CopySubtreeMutation = { copySubtree: { __typename: 'CopySubtreeResult', copiedCount: number, node:
      | { __typename: 'Category', id: string, name: string, childCount: number, parentId: string | null, version: number }
      | { __typename: 'Product', id: string, name: string, childCount: number, parentId: string | null, version: number }
      | { __typename: 'UntypedNode', id: string, name: string, childCount: number, parentId: string | null, version: number }
     | null, job: { __typename: 'Job', id: string, kind: JobKind, status: JobStatus, done: number, total: number | null } | null } };

export type NodeHistoryQueryVariables = Exact<{
  id: string | number;
  first: number;
}>;


export type NodeHistoryQuery = { node:
    | { __typename: 'Category', id: string, history: { __typename: 'TreeChangeConnection', nodes: Array<{ __typename: 'TreeChange', id: string, kind: TreeChangeKind, at: string, by: string | null, oldName: string | null, oldParentId: string | null, newParentId: string | null, count: number | null }> } }
    | { __typename: 'Product', id: string, history: { __typename: 'TreeChangeConnection', nodes: Array<{ __typename: 'TreeChange', id: string, kind: TreeChangeKind, at: string, by: string | null, oldName: string | null, oldParentId: string | null, newParentId: string | null, count: number | null }> } }
    | { __typename: 'UntypedNode', id: string, history: { __typename: 'TreeChangeConnection', nodes: Array<{ __typename: 'TreeChange', id: string, kind: TreeChangeKind, at: string, by: string | null, oldName: string | null, oldParentId: string | null, newParentId: string | null, count: number | null }> } }
   | null };

export type UndoMutationVariables = Exact<{
  changeId: string | number;
}>;


export type UndoMutation = { undo: { __typename: 'TreeChange', id: string, kind: TreeChangeKind, nodeId: string } };

export type DeletedNodesQueryVariables = Exact<{
  first: number;
}>;


export type DeletedNodesQuery = { deletedNodes: { __typename: 'NodeConnection', nodes: Array<
      | { __typename: 'Category', id: string, name: string, parentId: string | null }
      | { __typename: 'Product', id: string, name: string, parentId: string | null }
      | { __typename: 'UntypedNode', id: string, name: string, parentId: string | null }
    > } };

export type RestoreNodeMutationVariables = Exact<{
  id: string | number;
}>;


export type RestoreNodeMutation = { restoreNode:
    | { __typename: 'Category', id: string, name: string, childCount: number, parentId: string | null, version: number }
    | { __typename: 'Product', id: string, name: string, childCount: number, parentId: string | null, version: number }
    | { __typename: 'UntypedNode', id: string, name: string, childCount: number, parentId: string | null, version: number }
   };

export type NodeGrantsQueryVariables = Exact<{
  id: string | number;
}>;


export type NodeGrantsQuery = { node:
    | { __typename: 'Category', id: string, grants: Array<{ __typename: 'Grant', nodeId: string, principal: string, level: AccessLevel, grantedBy: string | null, at: string }> }
    | { __typename: 'Product', id: string, grants: Array<{ __typename: 'Grant', nodeId: string, principal: string, level: AccessLevel, grantedBy: string | null, at: string }> }
    | { __typename: 'UntypedNode', id: string, grants: Array<{ __typename: 'Grant', nodeId: string, principal: string, level: AccessLevel, grantedBy: string | null, at: string }> }
   | null };

export type GrantAccessMutationVariables = Exact<{
  nodeId: string | number;
  principal: string;
  level: AccessLevel;
}>;


export type GrantAccessMutation = { grantAccess: { __typename: 'Grant', nodeId: string, principal: string, level: AccessLevel, grantedBy: string | null, at: string } };

export type RevokeAccessMutationVariables = Exact<{
  nodeId: string | number;
  principal: string;
}>;


export type RevokeAccessMutation = { revokeAccess: boolean };

export type SharedWithMeQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type SharedWithMeQuery = { sharedWithMe: { __typename: 'NodeConnection', nodes: Array<
      | { __typename: 'Category', id: string, name: string, access: AccessLevel }
      | { __typename: 'Product', id: string, name: string, access: AccessLevel }
      | { __typename: 'UntypedNode', id: string, name: string, access: AccessLevel }
    >, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null } } };

export const TreeNodeFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TreeNodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"childCount"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<TreeNodeFieldsFragment, unknown>;
export const JobFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"JobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Job"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]} as unknown as DocumentNode<JobFieldsFragment, unknown>;
export const NodeDetailsFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NodeDetailsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TreeNodeFields"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"ancestors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"access"}},{"kind":"Field","name":{"kind":"Name","value":"pendingJob"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"JobFields"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Category"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Product"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TreeNodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"childCount"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"JobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Job"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]} as unknown as DocumentNode<NodeDetailsFieldsFragment, unknown>;
export const RootsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Roots"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"roots"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TreeNodeFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TreeNodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"childCount"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<RootsQuery, RootsQueryVariables>;
export const ChildrenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Children"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TreeNodeFields"}},{"kind":"Field","name":{"kind":"Name","value":"children"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TreeNodeFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TreeNodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"childCount"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<ChildrenQuery, ChildrenQueryVariables>;
export const TreeNodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TreeNode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TreeNodeFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TreeNodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"childCount"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<TreeNodeQuery, TreeNodeQueryVariables>;
export const NodeDetailsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"NodeDetails"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"NodeDetailsFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TreeNodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"childCount"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"JobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Job"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NodeDetailsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TreeNodeFields"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"ancestors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"access"}},{"kind":"Field","name":{"kind":"Name","value":"pendingJob"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"JobFields"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Category"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Product"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<NodeDetailsQuery, NodeDetailsQueryVariables>;
export const ReparentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Reparent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"newParentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedParentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reparent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"newParentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"newParentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedParentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedParentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"NodeDetailsFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TreeNodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"childCount"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"JobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Job"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NodeDetailsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TreeNodeFields"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"ancestors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"access"}},{"kind":"Field","name":{"kind":"Name","value":"pendingJob"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"JobFields"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Category"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Product"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ReparentMutation, ReparentMutationVariables>;
export const DeleteNodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteNode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedParentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteNode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedParentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedParentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deletedCount"}},{"kind":"Field","name":{"kind":"Name","value":"job"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"JobFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"JobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Job"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]} as unknown as DocumentNode<DeleteNodeMutation, DeleteNodeMutationVariables>;
export const JobDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Job"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"job"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"JobFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"JobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Job"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]} as unknown as DocumentNode<JobQuery, JobQueryVariables>;
export const CreateNodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateNode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"parentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"category"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CategoryInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"product"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ProductInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createNode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"parentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"parentId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"category"},"value":{"kind":"Variable","name":{"kind":"Name","value":"category"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"product"},"value":{"kind":"Variable","name":{"kind":"Name","value":"product"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TreeNodeFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TreeNodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"childCount"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<CreateNodeMutation, CreateNodeMutationVariables>;
export const RenameNodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RenameNode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateNode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TreeNodeFields"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TreeNodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"childCount"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<RenameNodeMutation, RenameNodeMutationVariables>;
export const UpdatePriceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdatePrice"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"price"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateNode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"product"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"price"},"value":{"kind":"Variable","name":{"kind":"Name","value":"price"}}}]}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TreeNodeFields"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Product"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"price"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TreeNodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"childCount"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<UpdatePriceMutation, UpdatePriceMutationVariables>;
export const DescendantCountDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DescendantCount"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"descendantCount"}}]}}]}}]} as unknown as DocumentNode<DescendantCountQuery, DescendantCountQueryVariables>;
export const TreeChangesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"TreeChanges"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"nodeId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"treeChanges"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"nodeId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"nodeId"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"oldParentId"}},{"kind":"Field","name":{"kind":"Name","value":"newParentId"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Category"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Product"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TreeChangesSubscription, TreeChangesSubscriptionVariables>;
export const CopySubtreeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CopySubtree"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"newParentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"copySubtree"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"newParentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"newParentId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"copiedCount"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TreeNodeFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"job"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"JobFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TreeNodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"childCount"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"JobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Job"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]} as unknown as DocumentNode<CopySubtreeMutation, CopySubtreeMutationVariables>;
export const NodeHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"NodeHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"by"}},{"kind":"Field","name":{"kind":"Name","value":"oldName"}},{"kind":"Field","name":{"kind":"Name","value":"oldParentId"}},{"kind":"Field","name":{"kind":"Name","value":"newParentId"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}}]}}]}}]} as unknown as DocumentNode<NodeHistoryQuery, NodeHistoryQueryVariables>;
export const UndoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Undo"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"changeId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"undo"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"changeId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"changeId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}}]}}]}}]} as unknown as DocumentNode<UndoMutation, UndoMutationVariables>;
export const DeletedNodesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DeletedNodes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deletedNodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}}]}}]}}]}}]} as unknown as DocumentNode<DeletedNodesQuery, DeletedNodesQueryVariables>;
export const RestoreNodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestoreNode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"restoreNode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TreeNodeFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TreeNodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Node"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"childCount"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<RestoreNodeMutation, RestoreNodeMutationVariables>;
export const NodeGrantsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"NodeGrants"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"grants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"principal"}},{"kind":"Field","name":{"kind":"Name","value":"level"}},{"kind":"Field","name":{"kind":"Name","value":"grantedBy"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]}}]} as unknown as DocumentNode<NodeGrantsQuery, NodeGrantsQueryVariables>;
export const GrantAccessDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"GrantAccess"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"nodeId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"principal"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"level"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AccessLevel"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"grantAccess"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"nodeId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"nodeId"}}},{"kind":"Argument","name":{"kind":"Name","value":"principal"},"value":{"kind":"Variable","name":{"kind":"Name","value":"principal"}}},{"kind":"Argument","name":{"kind":"Name","value":"level"},"value":{"kind":"Variable","name":{"kind":"Name","value":"level"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"principal"}},{"kind":"Field","name":{"kind":"Name","value":"level"}},{"kind":"Field","name":{"kind":"Name","value":"grantedBy"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<GrantAccessMutation, GrantAccessMutationVariables>;
export const RevokeAccessDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokeAccess"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"nodeId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"principal"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeAccess"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"nodeId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"nodeId"}}},{"kind":"Argument","name":{"kind":"Name","value":"principal"},"value":{"kind":"Variable","name":{"kind":"Name","value":"principal"}}}]}]}}]} as unknown as DocumentNode<RevokeAccessMutation, RevokeAccessMutationVariables>;
export const SharedWithMeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SharedWithMe"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sharedWithMe"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"access"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<SharedWithMeQuery, SharedWithMeQueryVariables>;