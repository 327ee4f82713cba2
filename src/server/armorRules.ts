import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { GraphQLError, Kind, type FragmentDefinitionNode, type ValidationContext, type ValidationRule } from 'graphql';
import { tooComplex } from '../errors.js';
import { measureOperation, type OperationLimits } from './limitsPlugin.js';

/** The deepest operation of a document as measured by the limits (its nesting and its deepest path). */
function deepest(context: ValidationContext): { nesting: number; at: string } {
  const document = context.getDocument();
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
  let found = { nesting: 0, at: '' };
  for (const def of document.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    const measure = measureOperation(def, fragments);
    if (measure.nesting > found.nesting) found = { nesting: measure.nesting, at: measure.deepestAt };
  }
  return found;
}

/** Reports a refusal as QUERY_TOO_COMPLEX (HTTP 400) instead of graphql-armor's own error. */
const refuse = (context: ValidationContext | null, message: string) =>
  context?.reportError(new GraphQLError(message, { originalError: tooComplex(message) }));

/**
 * The shape limits, enforced by graphql-armor's validation rules while Apollo validates the
 * document (before anything runs; a document that passes is cached, and not measured again):
 * nesting (fields through fragments, which count no level of their own), aliases (every one,
 * `__typename` and the other meta fields included, where graphql-armor would let `__typename`
 * go uncounted: an alias of it is as cheap to send and as costly to answer a thousand times;
 * each spread of a fragment counts its aliases again) and directives. Each refusal is QUERY_TOO_COMPLEX and
 * says what to change; a nesting refusal names the deepest field. The node estimate, which no
 * library makes for this schema, is the limits plugin's (limitsPlugin.ts).
 */
export function armorRules(limits: OperationLimits): ValidationRule[] {
  const common = { exposeLimits: true, propagateOnRejection: false } as const;
  return [
    maxDepthRule({
      ...common,
      n: limits.maxNesting,
      flattenFragments: true,
      ignoreIntrospection: false,
      onReject: [
        (context) => {
          const { nesting, at } = context ? deepest(context) : { nesting: limits.maxNesting + 1, at: '' };
          refuse(
            context,
            `operation depth ${nesting} is over the limit of ${limits.maxNesting}` +
              `${at ? ` (at ${at})` : ''}; nest fewer fields`,
          );
        },
      ],
    }),
    maxAliasesRule({
      ...common,
      n: limits.maxAliases,
      allowList: [],
      onReject: [
        (context) =>
          refuse(
            context,
            `operation uses more than ${limits.maxAliases} aliases, the limit: split it into several operations`,
          ),
      ],
    }),
    maxDirectivesRule({
      ...common,
      n: limits.maxDirectives,
      onReject: [
        (context) =>
          refuse(
            context,
            `operation uses more than ${limits.maxDirectives} directives, ` +
              'the limit: keep one @include or @skip per field',
          ),
      ],
    }),
  ];
}
