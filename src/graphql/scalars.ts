import { GraphQLScalarType, Kind } from 'graphql';
export { GraphQLJSONObject as JSONObjectScalar } from 'graphql-scalars';

/** ISO-8601 date-time, serialized as the string the store keeps. */
export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'An ISO-8601 date-time string, e.g. 2026-01-31T12:00:00.000Z.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => {
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) {
      throw new TypeError(`DateTime must be an ISO-8601 string, got ${JSON.stringify(value)}`);
    }
    return value;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || Number.isNaN(Date.parse(ast.value))) {
      throw new TypeError('DateTime must be an ISO-8601 string');
    }
    return ast.value;
  },
});
