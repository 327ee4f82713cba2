/**
 * A Relay-style subgraph's SDL, for the RELAY_NODE tests (composition offline, and the gateway
 * through the real server): its users, Relay's `interface Node` and `PageInfo`, and the
 * supergraph's `node` and `nodes`, which answer a reference for Canopy's `TreeNode` (a stub
 * keyed by its global id).
 */
export const RELAY_SUBGRAPH_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])

  interface Node {
    id: ID!
  }

  type PageInfo @shareable {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  type User implements Node @key(fields: "id") {
    id: ID!
    name: String!
    favourite: TreeNode
  }

  type TreeNode implements Node @key(fields: "id", resolvable: false) {
    id: ID!
  }

  type Query {
    node(id: ID!): Node
    nodes(ids: [ID!]!): [Node]!
  }
`;
