import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AccessLevel as Level, Grant as StoredGrant, TreeNode } from '../storage/treeStore.js';
import { checkId } from '../storage/validation.js';
import { NodeConnection, toConnection } from './connection.type.js';
import type { Context } from './context.js';
import { AccessLevel, Grant } from './grant.type.js';
import { NewestFirstArgs, pageSize } from './history.resolver.js';
import { Node } from './node.type.js';

/**
 * Grants on subtrees (docs/security.md): given, changed and taken by callers who may administer
 * the node (the store checks it in the write's own transaction), listed on a node, and the tops
 * of what is shared with the caller.
 */
@Resolver(() => Node)
export class SharingResolver {
  @FieldResolver(() => [Grant], {
    description:
      'The grants on this node (not those it inherits from above): every one for a caller who may administer ' +
      "it; else only the caller's own.",
  })
  async grants(@Root() node: TreeNode, @Ctx() { store, access }: Context): Promise<StoredGrant[]> {
    const [grants, level] = await Promise.all([store.access.grantsOn(node.id), access.levelOf(node)]);
    return level === 'admin' ? grants : grants.filter((grant) => access.principals.includes(grant.principal));
  }

  @FieldResolver(() => AccessLevel, {
    description: 'What you may do with this node and its subtree: the highest of your credentials and grants.',
  })
  async access(@Root() node: TreeNode, @Ctx() { access }: Context): Promise<Level> {
    return (await access.levelOf(node)) ?? 'read';
  }

  @Query(() => NodeConnection, {
    description: 'The tops of what is shared with you: the nodes your grants are on, none below another, in id order.',
  })
  async sharedWithMe(@Args(() => NewestFirstArgs) args: NewestFirstArgs, @Ctx() { store }: Context) {
    return toConnection(await store.access.sharedTops(pageSize(args), args.after), args);
  }

  @Mutation(() => Grant, {
    description:
      'Grants a level on a node and its whole subtree to a principal ("sub:<subject>", "group:<group>" or ' +
      '"key:<API key name>"), or changes the level of its grant there. Needs ADMIN on the node.',
  })
  async grantAccess(
    @Arg('nodeId', () => ID, { description: 'The node whose subtree the grant covers.' }) nodeId: string,
    @Arg('principal', () => String, { description: 'Who it is for.' }) principal: string,
    @Arg('level', () => AccessLevel, { description: 'What it allows.' }) level: Level,
    @Ctx() { store, loaders }: Context,
  ): Promise<StoredGrant> {
    const grant = await store.access.grant(checkId(nodeId, 'nodeId'), principal, level);
    loaders.clearAll();
    return grant;
  }

  @Mutation(() => Boolean, {
    description:
      "Revokes a principal's grant on a node (not one it inherits). Needs ADMIN on the node; false when it had none.",
  })
  async revokeAccess(
    @Arg('nodeId', () => ID, { description: 'The node the grant is on.' }) nodeId: string,
    @Arg('principal', () => String, { description: 'Who it is for.' }) principal: string,
    @Ctx() { store, loaders }: Context,
  ): Promise<boolean> {
    const revoked = await store.access.revoke(checkId(nodeId, 'nodeId'), principal);
    loaders.clearAll();
    return revoked;
  }
}
