/**
 * Federation 2 composition of Canopy's committed subgraph SDL beside the neighbours a real
 * supergraph has, with `@apollo/composition` (what Apollo's gateway and router compose with).
 */
import { readFileSync } from 'node:fs';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildTreeSchema, CATALOG_TYPES, printSubgraphSdl } from '../../src/graphql/buildSchema.js';
import { loadNodeTypes } from '../../src/nodeTypes/loadNodeTypes.js';
import { REVIEWS_SUBGRAPH_SDL } from '../support/reviewsSubgraph.js';

const CANOPY = readFileSync(new URL('../../schema/subgraph.graphql', import.meta.url), 'utf8');

/** A Relay-style subgraph of articles: its own connection types, and Relay's PageInfo. */
const ARTICLES = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])

  type PageInfo @shareable {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  type Article @key(fields: "id") {
    id: ID!
    title: String!
  }

  type ArticleEdge {
    cursor: String!
    node: Article!
  }

  type ArticleConnection {
    edges: [ArticleEdge!]!
    pageInfo: PageInfo!
  }

  type Query {
    articles(first: Int, after: String, last: Int, before: String): ArticleConnection!
  }
`;

const compose = (canopy: string) =>
  composeServices([
    { name: 'canopy', typeDefs: parse(canopy), url: 'http://canopy.invalid/graphql' },
    { name: 'articles', typeDefs: parse(ARTICLES), url: 'http://articles.invalid/graphql' },
  ]);

describe('the subgraph beside a Relay-style neighbour', () => {
  it("composes: Relay's PageInfo is shareable in both", () => {
    const result = compose(CANOPY);
    expect(result.errors?.map((error) => error.message) ?? []).toEqual([]);
    // One PageInfo in the supergraph, with the fields of both.
    expect(result.supergraphSdl).toMatch(/type PageInfo[^{]*\{[^}]*hasPreviousPage[^}]*endCursor/s);
  });

  it('would not compose with PageInfo not shareable (what the check above guards)', () => {
    const unshared = CANOPY.replace(/(type PageInfo)\s+@shareable/, '$1');
    expect(unshared).not.toBe(CANOPY);
    const messages = compose(unshared).errors?.map((error) => error.message) ?? [];
    expect(messages.join('\n')).toMatch(/Non-shareable field "PageInfo\.(endCursor|hasNextPage)"/);
  });
});

describe('the subgraph under NODE_TYPES beside a catalogue subgraph', () => {
  it('composes: each node type an entity another subgraph extends by @key', () => {
    const typed = printSubgraphSdl(buildTreeSchema({ federation: true, nodeTypes: loadNodeTypes(CATALOG_TYPES) }));
    const reviews = REVIEWS_SUBGRAPH_SDL;
    const result = composeServices([
      { name: 'canopy', typeDefs: parse(typed), url: 'http://canopy.invalid/graphql' },
      { name: 'reviews', typeDefs: parse(reviews), url: 'http://reviews.invalid/graphql' },
    ]);
    expect(result.errors?.map((error) => error.message) ?? []).toEqual([]);
    // One Product in the supergraph: Canopy's typed fields beside the reviews' own.
    expect(result.supergraphSdl).toMatch(
      /type Product implements Node[^{]*\{[^}]*price: Float![^}]*reviewCount: Int!/s,
    );
  });
});
