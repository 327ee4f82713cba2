/**
 * A reviews subgraph's SDL, for the NODE_TYPES federation tests (composition offline, and a
 * gateway through the real server): it extends the catalogue's `Product` (schema/catalog.graphql)
 * by its key, and lists the top reviewed products.
 */
export const REVIEWS_SUBGRAPH_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])

  type Product @key(fields: "id") {
    id: ID!
    reviewCount: Int!
  }

  type Query {
    topReviewed: [Product!]!
  }
`;
