import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/**
 * Pure builder of a Query on the table's keys, the read-side companion of TransactionBuilder:
 * one item collection (`pk`), optionally narrowed by a sort key condition, resumed after a sort
 * key, in either direction. Names and values go through placeholders. `queryItems` runs it.
 */
export type SortKeyCondition = { beginsWith: string } | { between: [string, string] };

export interface KeyQuery {
  pk: string;
  sk?: SortKeyCondition;
  /** Resume after this sort key (exclusive). */
  after?: string;
  /** Descending sort key order. */
  backwards?: boolean;
}

export function keyQuery(table: string, query: KeyQuery): QueryCommandInput {
  const values: Record<string, unknown> = { ':pk': query.pk };
  let condition = '#pk = :pk';
  if (query.sk && 'beginsWith' in query.sk) {
    condition += ' AND begins_with(#sk, :prefix)';
    values[':prefix'] = query.sk.beginsWith;
  } else if (query.sk) {
    condition += ' AND #sk BETWEEN :lo AND :hi';
    [values[':lo'], values[':hi']] = query.sk.between;
  }
  return {
    TableName: table,
    KeyConditionExpression: condition,
    ExpressionAttributeNames: query.sk ? { '#pk': 'pk', '#sk': 'sk' } : { '#pk': 'pk' },
    ExpressionAttributeValues: values,
    ...(query.after === undefined ? {} : { ExclusiveStartKey: { pk: query.pk, sk: query.after } }),
    ...(query.backwards ? { ScanIndexForward: false } : {}),
  };
}

/**
 * `input` reading only `attributes` and the caller's `own` ones (a ProjectionExpression, every
 * name through a placeholder: `name`, `data`, `path` are reserved words); `input` itself when
 * `attributes` is undefined (every attribute). The partition key is the Query's own, the same
 * for every item: queryItems gives it back to each item (withPk). The sort key is read when
 * `own` names it: a bulk read that pages nothing and names its items by id needs none.
 */
export function withProjection(
  input: QueryCommandInput,
  attributes: readonly string[] | undefined,
  own: readonly string[],
): QueryCommandInput {
  if (!attributes) return input;
  const names = [...new Set([...own, ...attributes])];
  return {
    ...input,
    ProjectionExpression: names.map((_, i) => `#a${i}`).join(', '),
    ExpressionAttributeNames: {
      ...input.ExpressionAttributeNames,
      ...Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
    },
  };
}
