import { Field, Int, ObjectType } from 'type-graphql';
import type { Job as StoredJob } from '../storage/treeStore.js';
import { Job } from './job.type.js';

@ObjectType('DeleteResult')
export class DeleteResult {
  @Field(() => Int)
  deletedCount!: number;

  @Field(() => Job, {
    nullable: true,
    description:
      'The job removing a subtree too big for one transaction; null when one transaction deleted it. ' +
      'The subtree is gone from every read either way.',
  })
  job!: StoredJob | null;
}
