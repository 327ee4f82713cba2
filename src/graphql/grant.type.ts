import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import type { AccessLevel as Level } from '../storage/treeStore.js';
import { DateTimeScalar } from './scalars.js';

export const AccessLevel = { READ: 'read', WRITE: 'write', ADMIN: 'admin' } as const satisfies Record<string, Level>;
registerEnumType(AccessLevel, {
  name: 'AccessLevel',
  description: 'What a grant allows on a node and its whole subtree; each level includes the ones before it.',
  valuesConfig: {
    READ: { description: 'Read the nodes, their history and their changes.' },
    WRITE: { description: 'Also create, update, move (within), delete and restore nodes.' },
    ADMIN: { description: 'Also grant and revoke access, and move nodes out of the subtree.' },
  },
});

@ObjectType('Grant', {
  simpleResolvers: true,
  description: 'A grant on a node, inherited by its whole subtree (docs/security.md).',
})
export class Grant {
  @Field(() => ID, { description: 'The node it is on.' })
  nodeId!: string;

  @Field(() => String, {
    description: 'Who it is for: "sub:<token subject>", "group:<group claim value>" or "key:<API key name>".',
  })
  principal!: string;

  @Field(() => AccessLevel, { description: 'What it allows.' })
  level!: Level;

  @Field(() => String, {
    nullable: true,
    description: 'Who granted it (a subject or an API key name); null from the CLI.',
  })
  grantedBy!: string | null;

  @Field(() => DateTimeScalar, { description: 'When it was granted (or its level last changed).' })
  at!: string;
}
