import { ArgsType, Field, ID, InputType, Int, registerEnumType } from 'type-graphql';
import type { DescendantsOrder as Order, JsonObject } from '../storage/treeStore.js';
import { JSONObjectScalar } from './scalars.js';

@ArgsType()
export class PageArgs {
  // Nullable with a default, as in the contract: `first: Int = 100` (an explicit null means 100).
  @Field(() => Int, { nullable: true, defaultValue: 100 })
  first!: number;

  @Field(() => String, { nullable: true })
  after?: string | null;
}

const DescendantsOrder = { BY_DEPTH: 'BY_DEPTH', PREORDER: 'PREORDER' } as const satisfies Record<Order, Order>;
registerEnumType(DescendantsOrder, {
  name: 'DescendantsOrder',
  valuesConfig: {
    BY_DEPTH: {
      description: 'By depth ascending; within one depth in a stable order that the storage strategy defines.',
    },
    PREORDER: {
      description:
        "Document order: a node, then its first child's whole subtree, then its next child's, " +
        'siblings in sibling order.',
    },
  },
});

@ArgsType()
export class DescendantsArgs extends PageArgs {
  @Field(() => Int, { nullable: true, defaultValue: 1 })
  minDepth!: number;

  @Field(() => Int, { nullable: true })
  maxDepth?: number | null;

  @Field(() => DescendantsOrder, { nullable: true, defaultValue: 'BY_DEPTH' })
  order!: Order;
}

@InputType('CreateNodeInput')
export class CreateNodeInput {
  @Field(() => ID, { nullable: true, description: 'Generated when absent.' })
  id?: string | null;

  @Field(() => ID, { nullable: true, description: 'Absent or null: a new root.' })
  parentId?: string | null;

  @Field(() => String)
  name!: string;

  @Field(() => JSONObjectScalar, { nullable: true })
  data?: JsonObject | null;

  @Field(() => ID, { nullable: true, description: 'Sibling to insert before.' })
  before?: string | null;

  @Field(() => ID, { nullable: true, description: 'Sibling to insert after (default: last).' })
  after?: string | null;
}

@ArgsType()
export class UpdateNodeArgs {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => JSONObjectScalar, { nullable: true })
  data?: JsonObject | null;

  @Field(() => Int, { nullable: true })
  expectedVersion?: number | null;
}

@ArgsType()
export class ReparentArgs {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { nullable: true })
  newParentId?: string | null;

  @Field(() => ID, { nullable: true })
  before?: string | null;

  @Field(() => ID, { nullable: true })
  after?: string | null;

  @Field(() => Int, { nullable: true })
  expectedVersion?: number | null;
}

@ArgsType()
export class DeleteNodeArgs {
  @Field(() => ID)
  id!: string;

  @Field(() => Int, { nullable: true })
  expectedVersion?: number | null;
}

@InputType('NewNodeInput', { description: 'A node of a createNodes list.' })
export class NewNodeInput {
  @Field(() => ID, {
    nullable: true,
    description: 'Generated when absent (then no node of the list can name it as its parent).',
  })
  id?: string | null;

  @Field(() => ID, {
    nullable: true,
    description: "The id of another node of the list, its parent; absent or null: the list's parentId.",
  })
  parentId?: string | null;

  @Field(() => String)
  name!: string;

  @Field(() => JSONObjectScalar, { nullable: true })
  data?: JsonObject | null;
}

@InputType('CreateNodesInput')
export class CreateNodesInput {
  @Field(() => ID, {
    nullable: true,
    description:
      "The existing parent of the list's top nodes, which go after its children in the list's order; " +
      'absent or null: they are roots.',
  })
  parentId?: string | null;

  @Field(() => [NewNodeInput], { description: '1 to 1,000 nodes, in any order; siblings keep the order of the list.' })
  nodes!: NewNodeInput[];
}
