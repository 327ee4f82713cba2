import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { Job as StoredJob, JobKind as Kind, JobStatus as Status } from '../storage/treeStore.js';
import { PageInfo } from './connection.type.js';
import { DateTimeScalar } from './scalars.js';

const JobKind = { MOVE: 'MOVE', DELETE: 'DELETE', REINDEX: 'REINDEX', IMPORT: 'IMPORT' } as const satisfies Record<
  Kind,
  Kind
>;
const JobStatus = { RUNNING: 'RUNNING', DONE: 'DONE', FAILED: 'FAILED' } as const satisfies Record<Status, Status>;
registerEnumType(JobKind, {
  name: 'JobKind',
  description: 'What a job does.',
  valuesConfig: {
    MOVE: { description: 'Rewrites the stored places of a moved subtree too big for one transaction.' },
    DELETE: { description: 'Removes a subtree too big for one transaction.' },
    REINDEX: { description: "Rebuilds the table's projection for another storage strategy (tree reindex)." },
    IMPORT: { description: 'Writes the nodes of a createNodes list too big for one transaction.' },
  },
});
registerEnumType(JobStatus, {
  name: 'JobStatus',
  description: 'Where a job stands.',
  valuesConfig: {
    RUNNING: { description: 'Under way: some live process runs it, or takes it over.' },
    DONE: { description: 'Finished.' },
    FAILED: { description: 'Given up; nothing of it stays applied.' },
  },
});

@ObjectType('Job', {
  simpleResolvers: true,
  description: 'Long work that any live process finishes: a big move or delete, a reindex, an import.',
})
export class Job {
  @Field(() => ID, { description: 'Sortable by creation time.' })
  id!: string;

  @Field(() => JobKind, { description: 'What the job does.' })
  kind!: Kind;

  @Field(() => JobStatus, { description: 'Where it stands.' })
  status!: Status;

  @Field(() => Int, { description: 'Nodes done so far.' })
  done!: number;

  @Field(() => Int, { nullable: true, description: 'Nodes in all, when known.' })
  total!: number | null;

  @Field(() => DateTimeScalar, { description: 'When the job started.' })
  startedAt!: string;

  @Field(() => ID, {
    nullable: true,
    description:
      'The node whose subtree the job moves or deletes; for an import, the parent of its nodes (null: they are roots).',
  })
  nodeId!: string | null;
}

@ObjectType('JobEdge', { simpleResolvers: true, description: 'A job of a page, with its cursor.' })
export class JobEdge {
  @Field(() => String, { description: 'Opaque, signed: pass it as `after` to read the jobs after this one.' })
  cursor!: string;

  @Field(() => Job, { description: 'The job.' })
  node!: StoredJob;
}

@ObjectType('JobConnection', { simpleResolvers: true, description: 'A page of jobs (Relay cursor connection).' })
export class JobConnection {
  @Field(() => [JobEdge], { description: "The page's jobs with their cursors." })
  edges!: JobEdge[];

  @Field(() => [Job], { description: "The page's jobs, as in `edges`, without cursors." })
  nodes!: StoredJob[];

  @Field(() => PageInfo, { description: 'Whether more jobs follow, and the cursor to read them from.' })
  pageInfo!: PageInfo;
}
