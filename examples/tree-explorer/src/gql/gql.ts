/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment TreeNodeFields on Node {\n    id\n    name\n    childCount\n    parentId\n    version\n  }\n": typeof types.TreeNodeFieldsFragmentDoc,
    "\n  fragment JobFields on Job {\n    id\n    kind\n    status\n    done\n    total\n  }\n": typeof types.JobFieldsFragmentDoc,
    "\n  fragment NodeDetailsFields on Node {\n    ...TreeNodeFields\n    depth\n    updatedAt\n    ancestors { id name }\n    access\n    pendingJob { ...JobFields }\n    ... on Category { slug title }\n    ... on Product { slug price status }\n  }\n": typeof types.NodeDetailsFieldsFragmentDoc,
    "\n  query Roots($first: Int!, $after: String) {\n    roots(first: $first, after: $after) {\n      nodes { ...TreeNodeFields }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.RootsDocument,
    "\n  query Children($id: ID!, $first: Int!, $after: String) {\n    node(id: $id) {\n      ...TreeNodeFields\n      children(first: $first, after: $after) {\n        nodes { ...TreeNodeFields }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.ChildrenDocument,
    "\n  query TreeNode($id: ID!) {\n    node(id: $id) { ...TreeNodeFields }\n  }\n": typeof types.TreeNodeDocument,
    "\n  query NodeDetails($id: ID!) {\n    node(id: $id) { ...NodeDetailsFields }\n  }\n": typeof types.NodeDetailsDocument,
    "\n  mutation Reparent(\n    $id: ID!\n    $newParentId: ID\n    $before: ID\n    $after: ID\n    $expectedVersion: Int\n    $expectedParentId: ID\n  ) {\n    reparent(\n      id: $id\n      newParentId: $newParentId\n      before: $before\n      after: $after\n      expectedVersion: $expectedVersion\n      expectedParentId: $expectedParentId\n    ) {\n      ...NodeDetailsFields\n    }\n  }\n": typeof types.ReparentDocument,
    "\n  mutation DeleteNode($id: ID!, $expectedVersion: Int, $expectedParentId: ID) {\n    deleteNode(id: $id, expectedVersion: $expectedVersion, expectedParentId: $expectedParentId) {\n      deletedCount\n      job { ...JobFields }\n    }\n  }\n": typeof types.DeleteNodeDocument,
    "\n  query Job($id: ID!) {\n    job(id: $id) { ...JobFields }\n  }\n": typeof types.JobDocument,
    "\n  mutation CreateNode($name: String!, $parentId: ID, $category: CategoryInput, $product: ProductInput) {\n    createNode(input: { name: $name, parentId: $parentId, category: $category, product: $product }) {\n      ...TreeNodeFields\n    }\n  }\n": typeof types.CreateNodeDocument,
    "\n  mutation RenameNode($id: ID!, $name: String!, $expectedVersion: Int) {\n    updateNode(id: $id, name: $name, expectedVersion: $expectedVersion) {\n      ...TreeNodeFields\n      updatedAt\n    }\n  }\n": typeof types.RenameNodeDocument,
    "\n  mutation UpdatePrice($id: ID!, $price: Float!, $expectedVersion: Int) {\n    updateNode(id: $id, product: { price: $price }, expectedVersion: $expectedVersion) {\n      ...TreeNodeFields\n      updatedAt\n      ... on Product { price }\n    }\n  }\n": typeof types.UpdatePriceDocument,
    "\n  query DescendantCount($id: ID!) {\n    node(id: $id) {\n      id\n      descendantCount\n    }\n  }\n": typeof types.DescendantCountDocument,
    "\n  subscription TreeChanges($nodeId: ID!, $after: String) {\n    treeChanges(nodeId: $nodeId, after: $after) {\n      cursor\n      kind\n      nodeId\n      oldParentId\n      newParentId\n      node {\n        id\n        name\n        parentId\n        version\n        updatedAt\n        ... on Category { slug title }\n        ... on Product { slug price status }\n      }\n    }\n  }\n": typeof types.TreeChangesDocument,
    "\n  mutation CopySubtree($id: ID!, $newParentId: ID, $before: ID, $after: ID) {\n    copySubtree(input: { id: $id, newParentId: $newParentId, before: $before, after: $after }) {\n      copiedCount\n      node { ...TreeNodeFields }\n      job { ...JobFields }\n    }\n  }\n": typeof types.CopySubtreeDocument,
    "\n  query NodeHistory($id: ID!, $first: Int!) {\n    node(id: $id) {\n      id\n      history(first: $first) {\n        nodes { id kind at by oldName oldParentId newParentId count }\n      }\n    }\n  }\n": typeof types.NodeHistoryDocument,
    "\n  mutation Undo($changeId: ID!) {\n    undo(changeId: $changeId) { id kind nodeId }\n  }\n": typeof types.UndoDocument,
    "\n  query DeletedNodes($first: Int!) {\n    deletedNodes(first: $first) {\n      nodes { id name parentId }\n    }\n  }\n": typeof types.DeletedNodesDocument,
    "\n  mutation RestoreNode($id: ID!) {\n    restoreNode(id: $id) { ...TreeNodeFields }\n  }\n": typeof types.RestoreNodeDocument,
    "\n  query NodeGrants($id: ID!) {\n    node(id: $id) {\n      id\n      grants { nodeId principal level grantedBy at }\n    }\n  }\n": typeof types.NodeGrantsDocument,
    "\n  mutation GrantAccess($nodeId: ID!, $principal: String!, $level: AccessLevel!) {\n    grantAccess(nodeId: $nodeId, principal: $principal, level: $level) { nodeId principal level grantedBy at }\n  }\n": typeof types.GrantAccessDocument,
    "\n  mutation RevokeAccess($nodeId: ID!, $principal: String!) {\n    revokeAccess(nodeId: $nodeId, principal: $principal)\n  }\n": typeof types.RevokeAccessDocument,
    "\n  query SharedWithMe($first: Int!, $after: String) {\n    sharedWithMe(first: $first, after: $after) {\n      nodes { id name access }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.SharedWithMeDocument,
};
const documents: Documents = {
    "\n  fragment TreeNodeFields on Node {\n    id\n    name\n    childCount\n    parentId\n    version\n  }\n": types.TreeNodeFieldsFragmentDoc,
    "\n  fragment JobFields on Job {\n    id\n    kind\n    status\n    done\n    total\n  }\n": types.JobFieldsFragmentDoc,
    "\n  fragment NodeDetailsFields on Node {\n    ...TreeNodeFields\n    depth\n    updatedAt\n    ancestors { id name }\n    access\n    pendingJob { ...JobFields }\n    ... on Category { slug title }\n    ... on Product { slug price status }\n  }\n": types.NodeDetailsFieldsFragmentDoc,
    "\n  query Roots($first: Int!, $after: String) {\n    roots(first: $first, after: $after) {\n      nodes { ...TreeNodeFields }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.RootsDocument,
    "\n  query Children($id: ID!, $first: Int!, $after: String) {\n    node(id: $id) {\n      ...TreeNodeFields\n      children(first: $first, after: $after) {\n        nodes { ...TreeNodeFields }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.ChildrenDocument,
    "\n  query TreeNode($id: ID!) {\n    node(id: $id) { ...TreeNodeFields }\n  }\n": types.TreeNodeDocument,
    "\n  query NodeDetails($id: ID!) {\n    node(id: $id) { ...NodeDetailsFields }\n  }\n": types.NodeDetailsDocument,
    "\n  mutation Reparent(\n    $id: ID!\n    $newParentId: ID\n    $before: ID\n    $after: ID\n    $expectedVersion: Int\n    $expectedParentId: ID\n  ) {\n    reparent(\n      id: $id\n      newParentId: $newParentId\n      before: $before\n      after: $after\n      expectedVersion: $expectedVersion\n      expectedParentId: $expectedParentId\n    ) {\n      ...NodeDetailsFields\n    }\n  }\n": types.ReparentDocument,
    "\n  mutation DeleteNode($id: ID!, $expectedVersion: Int, $expectedParentId: ID) {\n    deleteNode(id: $id, expectedVersion: $expectedVersion, expectedParentId: $expectedParentId) {\n      deletedCount\n      job { ...JobFields }\n    }\n  }\n": types.DeleteNodeDocument,
    "\n  query Job($id: ID!) {\n    job(id: $id) { ...JobFields }\n  }\n": types.JobDocument,
    "\n  mutation CreateNode($name: String!, $parentId: ID, $category: CategoryInput, $product: ProductInput) {\n    createNode(input: { name: $name, parentId: $parentId, category: $category, product: $product }) {\n      ...TreeNodeFields\n    }\n  }\n": types.CreateNodeDocument,
    "\n  mutation RenameNode($id: ID!, $name: String!, $expectedVersion: Int) {\n    updateNode(id: $id, name: $name, expectedVersion: $expectedVersion) {\n      ...TreeNodeFields\n      updatedAt\n    }\n  }\n": types.RenameNodeDocument,
    "\n  mutation UpdatePrice($id: ID!, $price: Float!, $expectedVersion: Int) {\n    updateNode(id: $id, product: { price: $price }, expectedVersion: $expectedVersion) {\n      ...TreeNodeFields\n      updatedAt\n      ... on Product { price }\n    }\n  }\n": types.UpdatePriceDocument,
    "\n  query DescendantCount($id: ID!) {\n    node(id: $id) {\n      id\n      descendantCount\n    }\n  }\n": types.DescendantCountDocument,
    "\n  subscription TreeChanges($nodeId: ID!, $after: String) {\n    treeChanges(nodeId: $nodeId, after: $after) {\n      cursor\n      kind\n      nodeId\n      oldParentId\n      newParentId\n      node {\n        id\n        name\n        parentId\n        version\n        updatedAt\n        ... on Category { slug title }\n        ... on Product { slug price status }\n      }\n    }\n  }\n": types.TreeChangesDocument,
    "\n  mutation CopySubtree($id: ID!, $newParentId: ID, $before: ID, $after: ID) {\n    copySubtree(input: { id: $id, newParentId: $newParentId, before: $before, after: $after }) {\n      copiedCount\n      node { ...TreeNodeFields }\n      job { ...JobFields }\n    }\n  }\n": types.CopySubtreeDocument,
    "\n  query NodeHistory($id: ID!, $first: Int!) {\n    node(id: $id) {\n      id\n      history(first: $first) {\n        nodes { id kind at by oldName oldParentId newParentId count }\n      }\n    }\n  }\n": types.NodeHistoryDocument,
    "\n  mutation Undo($changeId: ID!) {\n    undo(changeId: $changeId) { id kind nodeId }\n  }\n": types.UndoDocument,
    "\n  query DeletedNodes($first: Int!) {\n    deletedNodes(first: $first) {\n      nodes { id name parentId }\n    }\n  }\n": types.DeletedNodesDocument,
    "\n  mutation RestoreNode($id: ID!) {\n    restoreNode(id: $id) { ...TreeNodeFields }\n  }\n": types.RestoreNodeDocument,
    "\n  query NodeGrants($id: ID!) {\n    node(id: $id) {\n      id\n      grants { nodeId principal level grantedBy at }\n    }\n  }\n": types.NodeGrantsDocument,
    "\n  mutation GrantAccess($nodeId: ID!, $principal: String!, $level: AccessLevel!) {\n    grantAccess(nodeId: $nodeId, principal: $principal, level: $level) { nodeId principal level grantedBy at }\n  }\n": types.GrantAccessDocument,
    "\n  mutation RevokeAccess($nodeId: ID!, $principal: String!) {\n    revokeAccess(nodeId: $nodeId, principal: $principal)\n  }\n": types.RevokeAccessDocument,
    "\n  query SharedWithMe($first: Int!, $after: String) {\n    sharedWithMe(first: $first, after: $after) {\n      nodes { id name access }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.SharedWithMeDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TreeNodeFields on Node {\n    id\n    name\n    childCount\n    parentId\n    version\n  }\n"): (typeof documents)["\n  fragment TreeNodeFields on Node {\n    id\n    name\n    childCount\n    parentId\n    version\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment JobFields on Job {\n    id\n    kind\n    status\n    done\n    total\n  }\n"): (typeof documents)["\n  fragment JobFields on Job {\n    id\n    kind\n    status\n    done\n    total\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment NodeDetailsFields on Node {\n    ...TreeNodeFields\n    depth\n    updatedAt\n    ancestors { id name }\n    access\n    pendingJob { ...JobFields }\n    ... on Category { slug title }\n    ... on Product { slug price status }\n  }\n"): (typeof documents)["\n  fragment NodeDetailsFields on Node {\n    ...TreeNodeFields\n    depth\n    updatedAt\n    ancestors { id name }\n    access\n    pendingJob { ...JobFields }\n    ... on Category { slug title }\n    ... on Product { slug price status }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Roots($first: Int!, $after: String) {\n    roots(first: $first, after: $after) {\n      nodes { ...TreeNodeFields }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query Roots($first: Int!, $after: String) {\n    roots(first: $first, after: $after) {\n      nodes { ...TreeNodeFields }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Children($id: ID!, $first: Int!, $after: String) {\n    node(id: $id) {\n      ...TreeNodeFields\n      children(first: $first, after: $after) {\n        nodes { ...TreeNodeFields }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Children($id: ID!, $first: Int!, $after: String) {\n    node(id: $id) {\n      ...TreeNodeFields\n      children(first: $first, after: $after) {\n        nodes { ...TreeNodeFields }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TreeNode($id: ID!) {\n    node(id: $id) { ...TreeNodeFields }\n  }\n"): (typeof documents)["\n  query TreeNode($id: ID!) {\n    node(id: $id) { ...TreeNodeFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NodeDetails($id: ID!) {\n    node(id: $id) { ...NodeDetailsFields }\n  }\n"): (typeof documents)["\n  query NodeDetails($id: ID!) {\n    node(id: $id) { ...NodeDetailsFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Reparent(\n    $id: ID!\n    $newParentId: ID\n    $before: ID\n    $after: ID\n    $expectedVersion: Int\n    $expectedParentId: ID\n  ) {\n    reparent(\n      id: $id\n      newParentId: $newParentId\n      before: $before\n      after: $after\n      expectedVersion: $expectedVersion\n      expectedParentId: $expectedParentId\n    ) {\n      ...NodeDetailsFields\n    }\n  }\n"): (typeof documents)["\n  mutation Reparent(\n    $id: ID!\n    $newParentId: ID\n    $before: ID\n    $after: ID\n    $expectedVersion: Int\n    $expectedParentId: ID\n  ) {\n    reparent(\n      id: $id\n      newParentId: $newParentId\n      before: $before\n      after: $after\n      expectedVersion: $expectedVersion\n      expectedParentId: $expectedParentId\n    ) {\n      ...NodeDetailsFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteNode($id: ID!, $expectedVersion: Int, $expectedParentId: ID) {\n    deleteNode(id: $id, expectedVersion: $expectedVersion, expectedParentId: $expectedParentId) {\n      deletedCount\n      job { ...JobFields }\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteNode($id: ID!, $expectedVersion: Int, $expectedParentId: ID) {\n    deleteNode(id: $id, expectedVersion: $expectedVersion, expectedParentId: $expectedParentId) {\n      deletedCount\n      job { ...JobFields }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Job($id: ID!) {\n    job(id: $id) { ...JobFields }\n  }\n"): (typeof documents)["\n  query Job($id: ID!) {\n    job(id: $id) { ...JobFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateNode($name: String!, $parentId: ID, $category: CategoryInput, $product: ProductInput) {\n    createNode(input: { name: $name, parentId: $parentId, category: $category, product: $product }) {\n      ...TreeNodeFields\n    }\n  }\n"): (typeof documents)["\n  mutation CreateNode($name: String!, $parentId: ID, $category: CategoryInput, $product: ProductInput) {\n    createNode(input: { name: $name, parentId: $parentId, category: $category, product: $product }) {\n      ...TreeNodeFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RenameNode($id: ID!, $name: String!, $expectedVersion: Int) {\n    updateNode(id: $id, name: $name, expectedVersion: $expectedVersion) {\n      ...TreeNodeFields\n      updatedAt\n    }\n  }\n"): (typeof documents)["\n  mutation RenameNode($id: ID!, $name: String!, $expectedVersion: Int) {\n    updateNode(id: $id, name: $name, expectedVersion: $expectedVersion) {\n      ...TreeNodeFields\n      updatedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdatePrice($id: ID!, $price: Float!, $expectedVersion: Int) {\n    updateNode(id: $id, product: { price: $price }, expectedVersion: $expectedVersion) {\n      ...TreeNodeFields\n      updatedAt\n      ... on Product { price }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdatePrice($id: ID!, $price: Float!, $expectedVersion: Int) {\n    updateNode(id: $id, product: { price: $price }, expectedVersion: $expectedVersion) {\n      ...TreeNodeFields\n      updatedAt\n      ... on Product { price }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DescendantCount($id: ID!) {\n    node(id: $id) {\n      id\n      descendantCount\n    }\n  }\n"): (typeof documents)["\n  query DescendantCount($id: ID!) {\n    node(id: $id) {\n      id\n      descendantCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription TreeChanges($nodeId: ID!, $after: String) {\n    treeChanges(nodeId: $nodeId, after: $after) {\n      cursor\n      kind\n      nodeId\n      oldParentId\n      newParentId\n      node {\n        id\n        name\n        parentId\n        version\n        updatedAt\n        ... on Category { slug title }\n        ... on Product { slug price status }\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription TreeChanges($nodeId: ID!, $after: String) {\n    treeChanges(nodeId: $nodeId, after: $after) {\n      cursor\n      kind\n      nodeId\n      oldParentId\n      newParentId\n      node {\n        id\n        name\n        parentId\n        version\n        updatedAt\n        ... on Category { slug title }\n        ... on Product { slug price status }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CopySubtree($id: ID!, $newParentId: ID, $before: ID, $after: ID) {\n    copySubtree(input: { id: $id, newParentId: $newParentId, before: $before, after: $after }) {\n      copiedCount\n      node { ...TreeNodeFields }\n      job { ...JobFields }\n    }\n  }\n"): (typeof documents)["\n  mutation CopySubtree($id: ID!, $newParentId: ID, $before: ID, $after: ID) {\n    copySubtree(input: { id: $id, newParentId: $newParentId, before: $before, after: $after }) {\n      copiedCount\n      node { ...TreeNodeFields }\n      job { ...JobFields }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NodeHistory($id: ID!, $first: Int!) {\n    node(id: $id) {\n      id\n      history(first: $first) {\n        nodes { id kind at by oldName oldParentId newParentId count }\n      }\n    }\n  }\n"): (typeof documents)["\n  query NodeHistory($id: ID!, $first: Int!) {\n    node(id: $id) {\n      id\n      history(first: $first) {\n        nodes { id kind at by oldName oldParentId newParentId count }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Undo($changeId: ID!) {\n    undo(changeId: $changeId) { id kind nodeId }\n  }\n"): (typeof documents)["\n  mutation Undo($changeId: ID!) {\n    undo(changeId: $changeId) { id kind nodeId }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeletedNodes($first: Int!) {\n    deletedNodes(first: $first) {\n      nodes { id name parentId }\n    }\n  }\n"): (typeof documents)["\n  query DeletedNodes($first: Int!) {\n    deletedNodes(first: $first) {\n      nodes { id name parentId }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RestoreNode($id: ID!) {\n    restoreNode(id: $id) { ...TreeNodeFields }\n  }\n"): (typeof documents)["\n  mutation RestoreNode($id: ID!) {\n    restoreNode(id: $id) { ...TreeNodeFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NodeGrants($id: ID!) {\n    node(id: $id) {\n      id\n      grants { nodeId principal level grantedBy at }\n    }\n  }\n"): (typeof documents)["\n  query NodeGrants($id: ID!) {\n    node(id: $id) {\n      id\n      grants { nodeId principal level grantedBy at }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation GrantAccess($nodeId: ID!, $principal: String!, $level: AccessLevel!) {\n    grantAccess(nodeId: $nodeId, principal: $principal, level: $level) { nodeId principal level grantedBy at }\n  }\n"): (typeof documents)["\n  mutation GrantAccess($nodeId: ID!, $principal: String!, $level: AccessLevel!) {\n    grantAccess(nodeId: $nodeId, principal: $principal, level: $level) { nodeId principal level grantedBy at }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeAccess($nodeId: ID!, $principal: String!) {\n    revokeAccess(nodeId: $nodeId, principal: $principal)\n  }\n"): (typeof documents)["\n  mutation RevokeAccess($nodeId: ID!, $principal: String!) {\n    revokeAccess(nodeId: $nodeId, principal: $principal)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SharedWithMe($first: Int!, $after: String) {\n    sharedWithMe(first: $first, after: $after) {\n      nodes { id name access }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query SharedWithMe($first: Int!, $after: String) {\n    sharedWithMe(first: $first, after: $after) {\n      nodes { id name access }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;