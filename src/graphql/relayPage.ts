import { Kind, type GraphQLResolveInfo } from 'graphql';
import { badInput } from '../errors.js';
import type { PageArgs as StoragePage } from '../storage/treeStore.js';
import { DEFAULT_PAGE_SIZE } from '../storage/validation.js';
import type { PageArgs } from './node.args.js';

/**
 * The storage's page for a connection's arguments (Relay cursor connections): forward with
 * `first`/`after`, backward with `last`/`before` (the storage reads the list the other way, and
 * toConnection puts the page back in list order). One direction per page: `last` or `before`
 * with an `after` or an explicit `first` is BAD_USER_INPUT, as mixing them has no one meaning
 * (the schema's default `first: 100` is not explicit).
 */
export function relayPage(args: PageArgs, info: GraphQLResolveInfo): StoragePage {
  if (args.last == null && args.before == null) return { first: args.first ?? DEFAULT_PAGE_SIZE, after: args.after };
  if (args.after != null || givesFirst(info)) {
    throw badInput('page forward (first, after) or backward (last, before), not both', { field: 'last' });
  }
  return { first: args.last ?? DEFAULT_PAGE_SIZE, after: args.before, backwards: true };
}

/** Whether the field's `first` is given, as a literal or as a variable with a value. */
function givesFirst(info: GraphQLResolveInfo): boolean {
  const first = info.fieldNodes[0]?.arguments?.find((arg) => arg.name.value === 'first');
  if (!first) return false;
  if (first.value.kind !== Kind.VARIABLE) return first.value.kind !== Kind.NULL;
  return info.variableValues[first.value.name.value] != null;
}
