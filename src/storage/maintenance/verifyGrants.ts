import {
  GRANT_SK_PREFIX,
  NODE_PK_PREFIX,
  PRINCIPAL_PK_PREFIX,
  PRINCIPAL_SK,
  type Item,
  type Key,
} from '../../dynamodb/keys.js';
import { grantAttribute, grantsOfPrincipal } from '../engine/access/grantItems.js';

/** A problem verify reports (verify.ts Problem). */
type Problem = { nodeId: string; problem: string };

/**
 * Pure: the grants on subtrees, each kept in two items written together (engine/access/
 * grantItems.ts), checked against each other: every grant on a node held by its principal's
 * item at the same level, every grant a principal's item holds kept on its node, and the item's
 * count (`n`) equal to its grants. A grant on a node that is gone is no problem: it is kept for
 * the node's restore.
 */
export function grantProblems(items: ReadonlyArray<Item & Key>): Problem[] {
  const problems: Problem[] = [];
  const onNodes = new Map<string, unknown>();
  const principals = new Map<string, Item>();
  for (const item of items) {
    if (item.pk.startsWith(NODE_PK_PREFIX) && item.sk.startsWith(GRANT_SK_PREFIX)) {
      const nodeId = item.pk.slice(NODE_PK_PREFIX.length);
      onNodes.set(`${nodeId}\u0000${item.sk.slice(GRANT_SK_PREFIX.length)}`, item.level);
    } else if (item.pk.startsWith(PRINCIPAL_PK_PREFIX) && item.sk === PRINCIPAL_SK) {
      principals.set(item.pk.slice(PRINCIPAL_PK_PREFIX.length), item);
    }
  }
  for (const [key, level] of onNodes) {
    const [nodeId, principal] = key.split('\u0000') as [string, string];
    const held = principals.get(principal)?.[grantAttribute(nodeId)];
    if (held !== level)
      problems.push({ nodeId, problem: `the grant of ${principal} (${String(level)}) is not in its principal's item` });
  }
  for (const [principal, item] of principals) {
    const grants = grantsOfPrincipal(item);
    for (const [nodeId, level] of grants) {
      if (onNodes.get(`${nodeId}\u0000${principal}`) !== level)
        problems.push({ nodeId, problem: `${principal}'s item holds a grant (${level}) the node does not keep` });
    }
    if (item.n !== grants.size)
      problems.push({
        nodeId: '?',
        problem: `${principal}'s item counts ${String(item.n)} grants, holds ${grants.size}`,
      });
  }
  return problems;
}
