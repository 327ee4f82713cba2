import { Field, Int, ObjectType } from 'type-graphql';
import type { Job as StoredJob } from '../storage/treeStore.js';
import { Job } from './job.type.js';

@ObjectType('DeleteResult', { simpleResolvers: true, description: 'What deleteNode deleted.' })
export class DeleteResult {
  @Field(() => Int, { description: 'The nodes deleted, the node itself included.' })
  deletedCount!: number;

  @Field(() => Job, {
    nullable: true,
    description:
      'The job removing a subtree too big for one transaction; null when one transaction deleted it. ' +
      'The subtree is gone from every read either way.',
  })
  job!: StoredJob | null;
}
