import type { z } from 'zod';
import type { Item } from './keys.js';

/** A stored item that is not what its schema says: named by its key, with what is wrong. */
export class MalformedItem extends Error {
  constructor(item: Item, problems: string) {
    super(`item ${String(item.pk)} ${String(item.sk)} is malformed: ${problems}`);
    this.name = 'MalformedItem';
  }
}

/**
 * An item read from the table, decoded by its zod schema at the read boundary: the typed value,
 * or MalformedItem naming the item's key and every problem (`version: expected number`).
 */
export function decodeItem<S extends z.ZodType>(schema: S, item: Item): z.output<S> {
  const parsed = schema.safeParse(item);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.join('.') || '(item)'}: ${issue.message}`)
    .join('; ');
  throw new MalformedItem(item, problems);
}
