import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType('DeleteResult')
export class DeleteResult {
  @Field(() => Int)
  deletedCount!: number;
}
