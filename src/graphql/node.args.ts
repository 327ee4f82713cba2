import { ArgsType, Field, ID, InputType, Int, registerEnumType } from 'type-graphql';
import type { DescendantsOrder as Order, JsonObject } from '../storage/treeStore.js';
import { DEFAULT_PAGE_SIZE, grouped, MAX_CREATE_NODES, MAX_NAME_LENGTH, MAX_PAGE_SIZE } from '../storage/validation.js';
import { JSONObjectScalar } from './scalars.js';

/**
 * Relay's connection arguments: forward with `first`/`after`, backward with `last`/`before`
 * (relayPage.ts turns them into the storage's page).
 */
@ArgsType()
export class PageArgs {
  // Nullable with a default, as in the contract: `first: Int = 100` (an explicit null means 100).
  @Field(() => Int, {
    nullable: true,
    defaultValue: DEFAULT_PAGE_SIZE,
    description:
      `Paging forward: the page size, 1 to ${grouped(MAX_PAGE_SIZE)} ` +
      `(${DEFAULT_PAGE_SIZE} unless \`last\` is given).`,
  })
  first!: number;

  @Field(() => String, {
    nullable: true,
    description:
      "Paging forward: a cursor of this list (an edge's `cursor`, or `pageInfo.endCursor`): the page starts after it.",
  })
  after?: string | null;

  @Field(() => Int, {
    nullable: true,
    description:
      `Paging backward: the page size, 1 to ${grouped(MAX_PAGE_SIZE)}; ` +
      "the page holds the nodes just before `before` (without it, the list's last nodes), in list order. " +
      'Not with `first` or `after`.',
  })
  last?: number | null;

  @Field(() => String, {
    nullable: true,
    description:
      "Paging backward: a cursor of this list (an edge's `cursor`, or `pageInfo.startCursor`): the page ends " +
      `before it (${DEFAULT_PAGE_SIZE} nodes unless \`last\` says).`,
  })
  before?: string | null;
}

const DescendantsOrder = { BY_DEPTH: 'BY_DEPTH', PREORDER: 'PREORDER' } as const satisfies Record<Order, Order>;
registerEnumType(DescendantsOrder, {
  name: 'DescendantsOrder',
  description: 'The order of a page of descendants.',
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
  @Field(() => Int, {
    nullable: true,
    defaultValue: 1,
    description: 'The shallowest depth, relative to this node: 0 includes the node itself.',
  })
  minDepth!: number;

  @Field(() => Int, { nullable: true, description: 'The deepest depth, relative to this node; null: no bound.' })
  maxDepth?: number | null;

  @Field(() => DescendantsOrder, { nullable: true, defaultValue: 'BY_DEPTH', description: 'The order of the nodes.' })
  order!: Order;
}

@InputType('CreateNodeInput', { description: 'A new node, and where it goes.' })
export class CreateNodeInput {
  @Field(() => ID, { nullable: true, description: 'Generated when absent.' })
  id?: string | null;

  @Field(() => ID, { nullable: true, description: 'Absent or null: a new root.' })
  parentId?: string | null;

  @Field(() => String, {
    description: `The display name: 1 to ${MAX_NAME_LENGTH} characters, not blank, no control characters.`,
  })
  name!: string;

  @Field(() => JSONObjectScalar, { nullable: true, description: "Data of the caller's, a JSON object (optional)." })
  data?: JsonObject | null;

  /** Its node type (NODE_TYPES), set from the typed input it carries; no field of the schema (typedSchema.ts). */
  @Field(() => String, { nullable: true })
  type?: string | null;

  @Field(() => ID, { nullable: true, description: 'Sibling to insert before.' })
  before?: string | null;

  @Field(() => ID, { nullable: true, description: 'Sibling to insert after (default: last).' })
  after?: string | null;
}

/** The structural check a move or a delete may carry. */
const EXPECTED_PARENT = {
  nullable: true,
  description:
    "The node's parent as the caller last saw it (the empty string: a root): PARENT_CONFLICT, with nothing " +
    'changed and the current parent in extensions.currentParentId, if it is no longer there.',
};

/** The optimistic check every change of a node may carry. */
const EXPECTED_VERSION = {
  nullable: true,
  description: "The node's version as the caller last read it: VERSION_CONFLICT, with nothing changed, if it moved on.",
};

@ArgsType()
export class UpdateNodeArgs {
  @Field(() => ID, { description: 'The node to change.' })
  id!: string;

  @Field(() => String, { nullable: true, description: 'Its new name; absent or null: unchanged.' })
  name?: string | null;

  @Field(() => JSONObjectScalar, {
    nullable: true,
    description: 'Its new data, replacing the old whole; absent: unchanged; null: removed.',
  })
  data?: JsonObject | null;

  @Field(() => JSONObjectScalar, {
    nullable: true,
    description:
      'A JSON merge patch (RFC 7386) of its data: the fields it names change, a null removes one, the others ' +
      'stay; not with data.',
  })
  dataPatch?: JsonObject | null;

  /** The node type its typed patch is of (NODE_TYPES); no argument of the schema (typedSchema.ts). */
  @Field(() => String, { nullable: true })
  type?: string | null;

  @Field(() => Int, EXPECTED_VERSION)
  expectedVersion?: number | null;
}

@ArgsType()
export class ReparentArgs {
  @Field(() => ID, { description: 'The node to move, with its whole subtree.' })
  id!: string;

  @Field(() => ID, { nullable: true, description: 'Its new parent; absent or null: it becomes a root.' })
  newParentId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The sibling under the new parent to put it before.' })
  before?: string | null;

  @Field(() => ID, { nullable: true, description: 'The sibling under the new parent to put it after (default: last).' })
  after?: string | null;

  @Field(() => Int, EXPECTED_VERSION)
  expectedVersion?: number | null;

  @Field(() => ID, EXPECTED_PARENT)
  expectedParentId?: string | null;
}

@ArgsType()
export class DeleteNodeArgs {
  @Field(() => ID, { description: 'The node to delete, with its whole subtree.' })
  id!: string;

  @Field(() => Int, EXPECTED_VERSION)
  expectedVersion?: number | null;

  @Field(() => ID, EXPECTED_PARENT)
  expectedParentId?: string | null;
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

  @Field(() => String, {
    description: `The display name: 1 to ${MAX_NAME_LENGTH} characters, not blank, no control characters.`,
  })
  name!: string;

  @Field(() => JSONObjectScalar, { nullable: true, description: "Data of the caller's, a JSON object (optional)." })
  data?: JsonObject | null;

  /** Its node type (NODE_TYPES), set from the typed input it carries; no field of the schema (typedSchema.ts). */
  @Field(() => String, { nullable: true })
  type?: string | null;
}

@InputType('CreateNodesInput', { description: 'A list of new nodes, and the parent they go under.' })
export class CreateNodesInput {
  @Field(() => ID, {
    nullable: true,
    description:
      "The existing parent of the list's top nodes, which go after its children in the list's order; " +
      'absent or null: they are roots.',
  })
  parentId?: string | null;

  @Field(() => [NewNodeInput], {
    description: `1 to ${grouped(MAX_CREATE_NODES)} nodes, in any order; siblings keep the order of the list.`,
  })
  nodes!: NewNodeInput[];
}
