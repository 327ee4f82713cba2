import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { JsonObject } from '../storage/treeStore.js';
import { PageInfo } from './connection.type.js';
import type { LiveKind } from '../live/window.js';
import { DateTimeScalar, JSONObjectScalar } from './scalars.js';

const TreeChangeKind = {
  CREATED: 'CREATED',
  UPDATED: 'UPDATED',
  MOVED: 'MOVED',
  REORDERED: 'REORDERED',
  DELETED: 'DELETED',
  RESTORED: 'RESTORED',
  COPIED: 'COPIED',
  MOVED_IN: 'MOVED_IN',
  MOVED_OUT: 'MOVED_OUT',
  JOB_PROGRESS: 'JOB_PROGRESS',
  JOB_DONE: 'JOB_DONE',
} as const satisfies Record<LiveKind, LiveKind>;

registerEnumType(TreeChangeKind, {
  name: 'TreeChangeKind',
  description: 'What a change did, as the subscriber of a subtree sees it.',
  valuesConfig: {
    CREATED: { description: 'A node was created in the window (with its subtree: count).' },
    UPDATED: { description: "A node's name or data changed." },
    MOVED: { description: 'A node moved from one parent to another, both in the window.' },
    REORDERED: { description: 'A node moved among its siblings.' },
    DELETED: { description: 'A node was deleted, with its subtree (count).' },
    RESTORED: {
      description: 'A deleted node came back, with its subtree (count): restoreNode, or the undo of a delete.',
    },
    COPIED: { description: 'A copy of a subtree was made (count): nodeId is the copy, created in the window.' },
    MOVED_IN: { description: 'A node (with its subtree: count) moved into the window from outside it.' },
    MOVED_OUT: { description: 'A node (with its subtree) moved out of the window.' },
    JOB_PROGRESS: { description: 'A job working in the window progressed (job).' },
    JOB_DONE: { description: 'A job working in the window ended (job); an import: its nodes joined.' },
  },
});

/**
 * One change, as `treeChanges` delivers it (the resolvers are in subscription.resolver.ts): in
 * commit order within its tree, with the cursor to resume after it.
 */
@ObjectType('TreeChange', {
  simpleResolvers: true,
  description: 'One change in a subtree, with what a client needs to patch its view.',
})
export class TreeChange {
  @Field(() => String, { description: 'Resume point: pass it as after to get every later change once.' })
  cursor!: string;

  @Field(() => ID, { description: "The change's id." })
  id!: string;

  @Field(() => TreeChangeKind, { description: 'What the change did, relative to the watched window.' })
  kind!: LiveKind;

  @Field(() => ID, { description: 'The node changed (the root of a subtree moved, created or deleted).' })
  nodeId!: string;

  @Field(() => ID, { nullable: true, description: "The node's parent before the change (null: it was a root)." })
  oldParentId!: string | null;

  @Field(() => ID, {
    nullable: true,
    description: "The node's parent after the change (null: a root, gone, or in a tree you may not read).",
  })
  newParentId!: string | null;

  @Field(() => String, { nullable: true, description: "The node's position among its siblings after the change." })
  position!: string | null;

  @Field(() => Int, {
    nullable: true,
    description: "Nodes the change touched: a created, deleted or moved-in subtree's, or an import's; else null.",
  })
  count!: number | null;

  @Field(() => Int, { nullable: true, description: "The node's version after the change." })
  version!: number | null;

  @Field(() => String, {
    nullable: true,
    description: "The node's name before the change (an update, a move, a delete); null otherwise or out of sight.",
  })
  oldName!: string | null;

  @Field(() => JSONObjectScalar, {
    nullable: true,
    description: "The node's data before the change (an update, a move, a delete); null otherwise or out of sight.",
  })
  oldData!: JsonObject | null;

  @Field(() => String, {
    nullable: true,
    description: "The node's position among its siblings before the change (a move, a delete).",
  })
  oldPosition!: string | null;

  @Field(() => Int, { nullable: true, description: "The node's version before the change." })
  oldVersion!: number | null;

  @Field(() => [String], {
    nullable: true,
    description:
      "What an update changed: `name`, and each field of `data` it changed (a typed node's fields), in that " +
      'order; null for other changes, or out of sight.',
  })
  changedFields!: string[] | null;

  @Field(() => DateTimeScalar, { description: 'When the change committed.' })
  at!: string;

  @Field(() => String, { nullable: true, description: "Who made it: the caller's subject or API key, when known." })
  by!: string | null;
}

@ObjectType('TreeChangeEdge', { simpleResolvers: true, description: 'A change of a history page, with its cursor.' })
export class TreeChangeEdge {
  @Field(() => String, { description: 'Opaque: pass it as `after` to read the changes before this one.' })
  cursor!: string;

  @Field(() => TreeChange, { description: 'The change.' })
  node!: TreeChange;
}

@ObjectType('TreeChangeConnection', { simpleResolvers: true, description: 'A page of history: changes, newest first.' })
export class TreeChangeConnection {
  @Field(() => [TreeChangeEdge], { description: "The page's changes with their cursors." })
  edges!: TreeChangeEdge[];

  @Field(() => [TreeChange], { description: "The page's changes, as in `edges`, without cursors." })
  nodes!: TreeChange[];

  @Field(() => PageInfo, { description: 'Whether older changes follow, and the cursor to read them from.' })
  pageInfo!: PageInfo;
}
