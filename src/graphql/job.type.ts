import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { Job as StoredJob, JobKind as Kind, JobStatus as Status } from '../storage/treeStore.js';
import { PageInfo } from './connection.type.js';
import { DateTimeScalar } from './scalars.js';

const JobKind = { MOVE: 'MOVE', DELETE: 'DELETE', REINDEX: 'REINDEX', IMPORT: 'IMPORT' } as const satisfies Record<
  Kind,
  Kind
>;
const JobStatus = { RUNNING: 'RUNNING', DONE: 'DONE', FAILED: 'FAILED' } as const satisfies Record<Status, Status>;
registerEnumType(JobKind, { name: 'JobKind' });
registerEnumType(JobStatus, { name: 'JobStatus' });

@ObjectType('Job', {
  description: 'Long work that any live process finishes: a big move or delete, a reindex, an import.',
})
export class Job {
  @Field(() => ID)
  id!: string;

  @Field(() => JobKind)
  kind!: Kind;

  @Field(() => JobStatus)
  status!: Status;

  @Field(() => Int, { description: 'Nodes done so far.' })
  done!: number;

  @Field(() => Int, { nullable: true, description: 'Nodes in all, when known.' })
  total!: number | null;

  @Field(() => DateTimeScalar)
  startedAt!: string;

  @Field(() => ID, {
    nullable: true,
    description:
      'The node whose subtree the job moves or deletes; for an import, the parent of its nodes (null: they are roots).',
  })
  nodeId!: string | null;
}

@ObjectType('JobEdge')
export class JobEdge {
  @Field(() => String)
  cursor!: string;

  @Field(() => Job)
  node!: StoredJob;
}

@ObjectType('JobConnection')
export class JobConnection {
  @Field(() => [JobEdge])
  edges!: JobEdge[];

  @Field(() => [Job])
  nodes!: StoredJob[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;
}
