import { badInput, unauthenticated } from '../errors.js';

/**
 * Who a grant on a subtree is for: `sub:<token subject>`, `group:<group claim value>` or
 * `key:<API key name>`. A caller holds the principals its credentials name (Caller.principals).
 */
export const PRINCIPAL_KINDS = ['sub', 'group', 'key'] as const;

/** The longest name after a principal's kind. */
export const MAX_PRINCIPAL_NAME = 256;
/** The groups one token may name (a grant read costs one item per principal). */
export const MAX_GROUPS = 50;

const PRINCIPAL = new RegExp(`^(${PRINCIPAL_KINDS.join('|')}):[^\\u0000-\\u001f\\u007f]{1,${MAX_PRINCIPAL_NAME}}$`);

/** Pure: a principal as a grant names it, checked (BAD_USER_INPUT otherwise). */
export function checkPrincipal(principal: string, field = 'principal'): string {
  if (!PRINCIPAL.test(principal)) {
    throw badInput(
      `${field} must be "sub:<subject>", "group:<group>" or "key:<API key name>", ` +
        `of at most ${MAX_PRINCIPAL_NAME} characters after the colon, no control character`,
      { field },
    );
  }
  return principal;
}

/** Pure: a token's principals: its subject, and each value of its groups claim (a string or a list). */
export function tokenPrincipals(subject: unknown, groups: unknown, claim: string): string[] {
  const names = groups === undefined || groups === null ? [] : typeof groups === 'string' ? [groups] : groups;
  if (!Array.isArray(names) || names.length > MAX_GROUPS || names.some((g) => typeof g !== 'string')) {
    throw unauthenticated(`the ${claim} claim must be a string or a list of at most ${MAX_GROUPS} strings`);
  }
  const found = [
    ...(typeof subject === 'string' ? [`sub:${subject}`] : []),
    ...(names as string[]).map((group) => `group:${group}`),
  ];
  return [...new Set(found.filter((p) => PRINCIPAL.test(p)))];
}
