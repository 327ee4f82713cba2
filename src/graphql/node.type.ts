import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import type { JsonObject } from '../storage/treeStore.js';
import { MAX_NAME_LENGTH } from '../storage/validation.js';
import { DateTimeScalar, JSONObjectScalar } from './scalars.js';

/**
 * The stored fields of a node; the tree fields (parent, children, ...) are in node.resolver.ts.
 * `@key` makes Node a federation entity; only the subgraph SDL prints it (see federation.ts).
 * Every object type here has `simpleResolvers`: its plain fields are read straight off the
 * object by graphql-js, not through type-graphql's wrapper per field (no middleware runs on
 * them, and none is registered), which cost a tenth of the server's CPU on a page of a thousand
 * nodes. Field resolvers (node.resolver.ts) are unaffected.
 */
@Directive('@key(fields: "id")')
@ObjectType('Node', { simpleResolvers: true, description: 'A node of a tree.' })
export class Node {
  @Field(() => ID, { description: 'Unique in its tenant; given at creation, or generated.' })
  id!: string;

  @Field(() => String, {
    description: `The display name: 1 to ${MAX_NAME_LENGTH} characters, not blank, no control characters.`,
  })
  name!: string;

  @Field(() => ID, { nullable: true, description: 'null for a root' })
  parentId!: string | null;

  @Field(() => String, { description: 'Opaque sibling order key; children are ordered by it.' })
  position!: string;

  @Field(() => Int, { description: 'How many children it has (exact, from the stored tree).' })
  childCount!: number;

  @Field(() => JSONObjectScalar, {
    nullable: true,
    description: "The caller's own data, a JSON object; null when none.",
  })
  data!: JsonObject | null;

  @Field(() => Int, { description: 'Bumps on every change of this node (rename, data, move).' })
  version!: number;

  @Field(() => DateTimeScalar, { description: 'When the node was created.' })
  createdAt!: string;

  @Field(() => DateTimeScalar, { description: 'When the node last changed (rename, data, move).' })
  updatedAt!: string;

  @Field(() => String, {
    nullable: true,
    description:
      "On a node asked for by node or nodes (null elsewhere): the position in its tree's change log that this " +
      'node and everything below it in the same request were read after. treeChanges(nodeId: this node, after: ' +
      'changeCursor) then delivers every change committed since: none missed, though one may repeat what the ' +
      'read showed.',
  })
  changeCursor?: string | null;
}
