import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import type { JsonObject } from '../storage/treeStore.js';
import { DateTimeScalar, JSONObjectScalar } from './scalars.js';

/**
 * The stored fields of a node; the tree fields (parent, children, ...) are in node.resolver.ts.
 * `@key` makes Node a federation entity; only the subgraph SDL prints it (see federation.ts).
 */
@Directive('@key(fields: "id")')
@ObjectType('Node', { description: 'A node of a tree.' })
export class Node {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => ID, { nullable: true, description: 'null for a root' })
  parentId!: string | null;

  @Field(() => String, { description: 'Opaque sibling order key; children are ordered by it.' })
  position!: string;

  @Field(() => Int)
  childCount!: number;

  @Field(() => JSONObjectScalar, { nullable: true })
  data!: JsonObject | null;

  @Field(() => Int, { description: 'Bumps on every change of this node (rename, data, move).' })
  version!: number;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  updatedAt!: string;
}
