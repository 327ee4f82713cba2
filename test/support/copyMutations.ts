/** The mutations of copies, deletes and restores, as the copy and restore suites send them. */
export const COPY = `mutation Copy($input: CopySubtreeInput!) {
  copySubtree(input: $input) { copiedCount node { id parentId name depth } job { kind status } }
}`;
export const RESTORE = `mutation R($id: ID!, $newParentId: ID) {
  restoreNode(id: $id, newParentId: $newParentId) { id parentId }
}`;
export const DELETE = `mutation D($id: ID!) { deleteNode(id: $id) { deletedCount } }`;
