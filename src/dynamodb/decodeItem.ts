import { z } from 'zod';
import { fieldChecks } from './fieldChecks.js';

/** An item as read from the table (keys.ts Item: this file is below keys.ts, which decodes with it). */
type StoredItem = Record<string, unknown>;

/** An item's key as its attributes hold it, whatever they hold (a malformed item's may hold anything). */
const keyText = ({ pk, sk }: StoredItem): string => `${String(pk)} ${String(sk)}`;

/** A stored item that is not what its schema says: named by its key, with what is wrong. */
export class MalformedItem extends Error {
  constructor(item: StoredItem, problems: string) {
    super(`item ${keyText(item)} is malformed: ${problems}`);
    this.name = 'MalformedItem';
  }
}

/**
 * An item read from the table, decoded by its zod schema at the read boundary: the typed value,
 * or MalformedItem naming the item's key and every problem (`version: expected number`).
 */
export function decodeItem<S extends z.ZodType>(schema: S, item: StoredItem): z.output<S> {
  const parsed = schema.safeParse(item);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.join('.') || '(item)'}: ${issue.message}`)
    .join('; ');
  throw new MalformedItem(item, problems);
}

/**
 * decodeItem for the items of one object schema, made once, for the kinds of item decoded by
 * the thousand in a request (nodes, their keys): an item that passes the checks derived from
 * the schema's shape (fieldChecks.ts) is answered as it is, with no parse, its other attributes
 * kept; one that fails them is parsed, which explains it. Every field must be of a kind such a
 * check stands for (fieldChecks throws otherwise).
 */
export function decoderOf<S extends z.ZodObject>(schema: S): (item: StoredItem) => z.output<S> {
  const checks = fieldChecks(schema);
  return (item) => {
    for (const [name, check] of checks) if (!check(item[name])) return decodeItem(schema, item);
    // What the schema's parse would answer, but for the attributes it does not name.
    return item as z.output<S>;
  };
}

/**
 * The schema of an attribute that holds JSON text (a pack of nodes, a node's data in a change):
 * the text parsed, then decoded by `schema`, so that what the table keeps as text is decoded as
 * the rest of its item is.
 */
export const jsonText = <S extends z.ZodType>(schema: S) =>
  z
    .string()
    .transform((text, ctx): unknown => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'expected JSON text' });
        return z.NEVER;
      }
    })
    .pipe(schema);
