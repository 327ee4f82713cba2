import { Field, ObjectType } from 'type-graphql';
import type { Job as StoredJob, TreeNode } from '../storage/treeStore.js';
import { Job } from './job.type.js';
import { Node } from './node.type.js';

@ObjectType('CreateNodesResult', { simpleResolvers: true, description: 'What createNodes created.' })
export class CreateNodesResult {
  @Field(() => [Node], { description: "The nodes created, in the list's order." })
  nodes!: TreeNode[];

  @Field(() => Job, {
    nullable: true,
    description:
      'The IMPORT job that wrote the nodes when one transaction could not hold them ' +
      '(DONE by the time the answer comes); null when one transaction did. ' +
      'Either way no read saw any of them before all were there.',
  })
  job!: StoredJob | null;
}
