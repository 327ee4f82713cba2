/**
 * A bounded cache of what a text's parse gave, least recently used first out: identical texts
 * (every subscriber of one app sends the same few) share one document, which nobody mutates
 * (graphql-js's execution only reads it). A Map keeps its keys in insertion order; a hit moves
 * its key to the end.
 */
export interface DocumentCache<T> {
  /** What `make` gives for `text`, made once while it stays among the `limit` most recently used. */
  get(text: string, make: (text: string) => T): T;
  readonly size: number;
}

export function documentCache<T>(limit: number): DocumentCache<T> {
  const entries = new Map<string, T>();
  return {
    get(text, make) {
      const hit = entries.get(text);
      if (hit !== undefined) {
        entries.delete(text);
        entries.set(text, hit);
        return hit;
      }
      const made = make(text);
      entries.set(text, made);
      if (entries.size > limit) entries.delete(entries.keys().next().value!);
      return made;
    },
    get size() {
      return entries.size;
    },
  };
}
