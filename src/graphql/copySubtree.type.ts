import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { Job as StoredJob, TreeNode } from '../storage/treeStore.js';
import { Job } from './job.type.js';
import { Node } from './node.type.js';

@InputType('CopySubtreeInput', { description: 'A subtree to copy, and where the copy goes.' })
export class CopySubtreeInput {
  @Field(() => ID, { description: 'The root of the subtree to copy.' })
  id!: string;

  @Field(() => ID, { nullable: true, description: "The copy's parent; absent or null: the copy is a new root." })
  newParentId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Sibling to put the copy before.' })
  before?: string | null;

  @Field(() => ID, { nullable: true, description: 'Sibling to put the copy after (default: last).' })
  after?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'New ids: this prefix before each original id (`copy-` + `laptops`); absent: generated ids.',
  })
  idPrefix?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "The copy's value of its type's path key (NODE_TYPES's @pathKey), unique among its new siblings; absent: " +
      "the original's. Give one to copy beside the original.",
  })
  pathKey?: string | null;
}

@ObjectType('CopySubtreeResult', { simpleResolvers: true, description: 'What copySubtree made.' })
export class CopySubtreeResult {
  @Field(() => Node, { nullable: true, description: "The copy's root, once the copy is whole." })
  node!: TreeNode | null;

  @Field(() => Job, {
    nullable: true,
    description:
      'The IMPORT job that wrote the copy when one transaction could not hold it (DONE by the time the answer ' +
      'comes); null when one transaction did. Either way no read saw part of the copy.',
  })
  job!: StoredJob | null;

  @Field(() => Int, { description: 'The nodes copied: the node and its whole subtree.' })
  copiedCount!: number;
}
